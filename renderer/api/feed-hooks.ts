/**
 * React-query hooks over the feed methods (Settings → Feeds, the Updates screen): beside `hooks.ts`,
 * calling the Api only through `call`. Checking for updates reads every feed over the network, so it
 * runs when the screen opens and on "Check now", never on a timer here (the app's main process checks
 * daily); a change refreshes what it changes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRequest } from '../../shared/contract/api';
import { call } from './bridge';
import { queryKeys } from './query-keys';

/** The feeds' query keys, under the one factory's root. */
export const feedKeys = {
  feeds: () => [...queryKeys.all, 'feeds'] as const,
  updates: () => [...queryKeys.all, 'updates'] as const,
};

/** Settings → Feeds: the feeds followed, each with its keys. */
export function useFollowedFeeds() {
  return useQuery({ queryKey: feedKeys.feeds(), queryFn: () => call('followedFeeds') });
}

/** The Updates screen: every feed checked now (asked again by "Check now"). */
export function useCheckUpdates() {
  return useQuery({
    queryKey: feedKeys.updates(),
    queryFn: () => call('checkUpdates'),
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** Follows a feed (with its key): the feeds, and the trusted keys a key was added to, refreshed. */
export function useFollowFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiRequest<'followFeed'>) => call('followFeed', request),
    onSuccess: (view) => client.setQueryData(feedKeys.feeds(), view),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.trustedKeys() }),
  });
}

/** Stops following a feed. */
export function useUnfollowFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiRequest<'unfollowFeed'>) => call('unfollowFeed', request),
    onSuccess: (view) => client.setQueryData(feedKeys.feeds(), view),
  });
}

/** Sets a package's update mode; the row shows the mode now in force. */
export function useSetUpdateMode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiRequest<'setUpdateMode'>) => call('setUpdateMode', request),
    onSuccess: (set) =>
      client.setQueryData(feedKeys.updates(), (view: Awaited<ReturnType<typeof call<'checkUpdates'>>> | undefined) =>
        view
          ? { ...view, rows: view.rows.map((row) => (row.name === set.name ? { ...row, mode: set.mode } : row)) }
          : view,
      ),
  });
}

/** Opens a package's update (or its roll back) as a source: the consent form then shows what it changes. */
export function useOpenUpdate(kind: 'update' | 'rollback') {
  return useMutation({
    mutationFn: (request: { name: string }) => call(kind === 'update' ? 'openUpdate' : 'openRollback', request),
  });
}
