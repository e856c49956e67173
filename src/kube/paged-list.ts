/**
 * A whole list a page at a time (limit / continue), as one list object: the pages of one list are
 * one consistent snapshot, and the last page's resourceVersion is the one to watch from. `each`
 * sees every item as its page arrives, so that what it drops is garbage before the next page.
 */
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';

/** Items per page: 10,000 InferenceServices are never one answer held whole. */
export const LIST_PAGE_SIZE = 500;

export type ListPage<T extends KubernetesObject> = (page: {
  limit: number;
  _continue?: string;
}) => Promise<KubernetesListObject<T>>;

export async function pagedList<T extends KubernetesObject>(
  listPage: ListPage<T>,
  each: (item: T) => T = (item) => item,
): Promise<KubernetesListObject<T>> {
  const items: T[] = [];
  let token: string | undefined;
  let last: KubernetesListObject<T>;
  do {
    last = await listPage({ limit: LIST_PAGE_SIZE, ...(token ? { _continue: token } : {}) });
    for (const item of last.items ?? []) items.push(each(item));
    token = last.metadata?._continue || (last.metadata as { continue?: string } | undefined)?.continue || undefined;
  } while (token);
  return { ...last, items };
}
