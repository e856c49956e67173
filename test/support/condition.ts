/** A status condition as the API server returns it (type, status, and reason / message when given), for tests' objects. */
export interface Cond {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export const condition = (type: string, status: string, reason?: string, message?: string): Cond => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});
