/**
 * React-query hooks over the Api: the only code that calls `window.apollia` (through `call`), so
 * every screen has the same loading and error states. Mutations that change what is installed
 * invalidate the dashboard (and the settings, where they change them).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRequest } from '../../shared/contract/api';
import { call } from './bridge';
import { queryKeys } from './query-keys';

export function useAppInfo() {
  return useQuery({ queryKey: queryKeys.appInfo(), queryFn: () => call('appInfo'), staleTime: Infinity });
}

export function useBuiltinTemplates() {
  return useQuery({
    queryKey: queryKeys.builtinTemplates(),
    queryFn: () => call('listBuiltinTemplates'),
    staleTime: Infinity,
  });
}

/**
 * The check of one opened source. Never refetched behind the user's back: the consent form must not change under them.
 */
export function useInspection(sourceId: string) {
  return useQuery({
    queryKey: queryKeys.inspection(sourceId),
    queryFn: () => call('inspect', { sourceId }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export function useDashboard() {
  return useQuery({ queryKey: queryKeys.dashboard(), queryFn: () => call('dashboard') });
}

/** The organization's policy in words, and what it changes here. */
export function usePolicyPage() {
  return useQuery({ queryKey: queryKeys.policyPage(), queryFn: () => call('policyPage') });
}

export function useSettings() {
  // Just after start the keychain may not have answered (`pending`): asked again until it has.
  return useQuery({
    queryKey: queryKeys.settings(),
    queryFn: () => call('settings'),
    refetchInterval: (query) => (query.state.data?.secretBackend === 'pending' ? 1000 : false),
  });
}

/** The template apply preview for the current parameters and grants (the caller debounces the request). */
export function usePreviewApply(sourceId: string, request: ApiRequest<'previewApply'> | null) {
  return useQuery({
    queryKey: queryKeys.previewApply(sourceId, request),
    queryFn: () => call('previewApply', request as ApiRequest<'previewApply'>),
    enabled: request !== null,
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function useOpenDialog() {
  return useMutation({ mutationFn: (request: ApiRequest<'openDialog'>) => call('openDialog', request) });
}

export function useOpenBuiltinTemplate() {
  return useMutation({
    mutationFn: (request: ApiRequest<'openBuiltinTemplate'>) => call('openBuiltinTemplate', request),
  });
}

export function usePickWatchFolder() {
  return useMutation({ mutationFn: () => call('pickWatchFolder') });
}

/** A mutation that, once done, refreshes what the dashboard (and optionally settings) show. */
/** What a change makes stale besides the dashboard (always refreshed). */
interface ChangeRefreshes {
  /** Settings (saved servers, secrets, denied tools). */
  settings?: boolean;
  /** Opened packages' inspections (their relation to what is installed). */
  inspections?: boolean;
  /** Apply previews (what is missing or denied). */
  previews?: boolean;
  /** Trusted keys (Settings → Trusted publishers). */
  keys?: boolean;
}

function useChange<
  M extends
    | 'install'
    | 'apply'
    | 'setWebhookPort'
    | 'setActivityCollector'
    | 'setToolAccess'
    | 'armTrigger'
    | 'disarmTrigger'
    | 'pauseTrigger'
    | 'resumeTrigger'
    | 'setToolAsks'
    | 'setApprovals'
    | 'rotateWebhookSecret'
    | 'uninstallPackage'
    | 'archiveAgent'
    | 'saveMcpServer'
    | 'removeMcpServer'
    | 'saveSecret'
    | 'removeSecret'
    | 'denyTool'
    | 'removeDeniedTool'
    | 'trustKey'
    | 'untrustKey'
    | 'refuseKeyChange'
    | 'trashSource'
    | 'discardWaitingRun'
    | 'discardTriggerRuns',
>(method: M, refresh: ChangeRefreshes = {}) {
  const {
    settings: alsoSettings = false,
    inspections: alsoInspections = false,
    previews: alsoPreviews = false,
    keys: alsoKeys = false,
  } = refresh;
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiRequest<M>) =>
      (call as (m: M, r: ApiRequest<M>) => ReturnType<typeof call<M>>)(method, request),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: queryKeys.dashboard() });
      // Every change may be recorded in the activity log and may change what the trigger host runs.
      await client.invalidateQueries({ queryKey: queryKeys.live() });
      if (alsoSettings) await client.invalidateQueries({ queryKey: queryKeys.settings() });
      // What is installed changed: an opened package's relation to it (update, same, older) may have too.
      if (alsoInspections) await client.invalidateQueries({ queryKey: queryKeys.inspections() });
      // Saved servers and secrets decide what an apply preview says is missing; denied tools, what it denies.
      if (alsoPreviews) await client.invalidateQueries({ queryKey: queryKeys.previews() });
      // Trust: the keys changed, so an opened package's signature state may have too.
      if (alsoKeys) await client.invalidateQueries({ queryKey: queryKeys.trustedKeys() });
    },
  });
}

export const useInstall = () => useChange('install', { inspections: true });
export const useApply = () => useChange('apply');
export const useSetToolAccess = () => useChange('setToolAccess');
export const useArmTrigger = () => useChange('armTrigger');
export const useDisarmTrigger = () => useChange('disarmTrigger');
export const usePauseTrigger = () => useChange('pauseTrigger');
export const useResumeTrigger = () => useChange('resumeTrigger');
/** One granted tool of a package's agent: ask first, or run without asking. */
export const useSetToolAsks = () => useChange('setToolAsks');
/** A template agent: ask before each tool, or run unattended. */
export const useSetApprovals = () => useChange('setApprovals');
export const useRotateWebhookSecret = () => useChange('rotateWebhookSecret');
export const useUninstallPackage = () => useChange('uninstallPackage', { inspections: true });
export const useArchiveAgent = () => useChange('archiveAgent');
export const useSaveMcpServer = () => useChange('saveMcpServer', { settings: true, previews: true });
export const useRemoveMcpServer = () => useChange('removeMcpServer', { settings: true, previews: true });
export const useSaveSecret = () => useChange('saveSecret', { settings: true, previews: true });
export const useRemoveSecret = () => useChange('removeSecret', { settings: true, previews: true });
/** Settings → Tools you never allow: add one (an open apply form's preview is refreshed). */
export const useDenyTool = () => useChange('denyTool', { settings: true, previews: true });
/** Settings → Tools you never allow: take one off the list. */
export const useRemoveDeniedTool = () => useChange('removeDeniedTool', { settings: true, previews: true });
/** A refused file that may be malicious, moved to the system's Trash. */
export const useTrashSource = () => useChange('trashSource');

// ---- Live triggers and the activity log ----
/** How often the live views ask again: the trigger host changes them without the renderer doing anything. */
export const LIVE_REFRESH_MS = 2_000;

/** Whether a trigger host runs, each live trigger's state, deliveries and last fire, and the runs waiting; polled. */
export function useTriggerStatus() {
  return useQuery({
    queryKey: queryKeys.triggerStatus(),
    queryFn: () => call('triggerStatus'),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/** The activity log, newest first; one agent's when `agent` is set; polled. */
export function useActivity(agent: string | null, decisionsOnly = false) {
  return useQuery({
    queryKey: queryKeys.activity(agent, decisionsOnly),
    queryFn: () =>
      call('activity', { ...(agent === null ? {} : { agent }), ...(decisionsOnly ? { decisionsOnly } : {}) }),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

/**
 * What waits in `runs/pending/`, oldest first (one trigger's when `trigger` is set); polled, as an agent runtime may
 * take runs and triggers queue more at any time.
 */
export function useWaitingRuns(trigger: string | null) {
  return useQuery({
    queryKey: queryKeys.waitingRuns(trigger),
    queryFn: () => call('waitingRuns', trigger === null ? {} : { trigger }),
    refetchInterval: LIVE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
/** Discards one waiting run (recorded in the activity record). */
export const useDiscardWaitingRun = () => useChange('discardWaitingRun');
/** Discards every run one trigger has waiting (recorded in the activity record). */
export const useDiscardTriggerRuns = () => useChange('discardTriggerRuns');

/** Settings → the webhook port (null: the default); a running host moves its listener. */
export const useSetWebhookPort = () => useChange('setWebhookPort', { settings: true });

/** Settings → Activity record: the collector in effect (the organization's, else the person's) and its status. */
export function useActivityCollector() {
  return useQuery({ queryKey: queryKeys.activityCollector(), queryFn: () => call('activityCollector') });
}
/** Names the person's collector (null: removes it); the dashboard and the Activity screen follow. */
export const useSetActivityCollector = () => useChange('setActivityCollector');

/** Opens the page where the newest Apollia Desktop is, in the person's browser (a fixed address: shared/base/app-links.ts). */
export function useOpenDownloadPage() {
  return useMutation({ mutationFn: () => call('openDownloadPage') });
}

export function useStartAtLogin() {
  return useQuery({ queryKey: queryKeys.startAtLogin(), queryFn: () => call('startAtLogin') });
}

export function useSetStartAtLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiRequest<'setStartAtLogin'>) => call('setStartAtLogin', request),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.startAtLogin() }),
  });
}

// ---- Trust ----

/** Settings → Trusted publishers: the keys the user trusts. */
export function useTrustedKeys() {
  return useQuery({ queryKey: queryKeys.trustedKeys(), queryFn: () => call('trustedKeys') });
}
/** Trusts a pasted key; opened packages are checked again (a signature may now verify). */
export const useTrustKey = () => useChange('trustKey', { keys: true, inspections: true });
/** Reads a pasted key without trusting it (its id and fingerprint, shown before it is named); changes nothing. */
export function usePreviewKey() {
  return useMutation({ mutationFn: (request: ApiRequest<'previewKey'>) => call('previewKey', request) });
}
/** Reads a `.pub` file picked in a main-process dialog without trusting it; null when cancelled. */
export function usePreviewKeyFile() {
  return useMutation({ mutationFn: () => call('previewKeyFile') });
}
/** Removes a trusted key. */
export const useUntrustKey = () => useChange('untrustKey', { keys: true, inspections: true });
/** "Don't update" on a key-change stop: recorded in the activity log. */
export const useRefuseKeyChange = () => useChange('refuseKeyChange');

/**
 * Whether the secret being given for `triggerId` is already set on another trigger: the warning's words, asked only
 * for a secret the check accepts (`secret` null: not asked). Not cached once the field stops asking.
 */
export function useWebhookSecretShared(triggerId: string, secret: string | null) {
  return useQuery({
    queryKey: queryKeys.webhookSecretShared(triggerId, secret ?? ''),
    queryFn: () => call('webhookSecretShared', { triggerId, secret: secret ?? '' }),
    enabled: secret !== null,
    gcTime: 0,
  });
}
