/**
 * Who is in a user group of approvers (`S…` ids): the port the approval check asks (Slack's
 * implementation: src/slack/user-group-directory.ts). A group that could not be read is absent.
 */
export type GroupMembers = ReadonlyMap<string, readonly string[]>;

export interface UserGroupDirectory {
  members(groupIds: string[]): Promise<GroupMembers>;
}
