/**
 * Drafts of the `.apo` consent form, one per opened source, so switching between opened packages
 * keeps each person's answers (UI flow state: STYLE.md "State in the renderer").
 */
import { create } from 'zustand';
import type { WebhookSecretDraft } from '../components/WebhookSecretChoice';

/** The arming of one proposed trigger: off unless the user arms it (DESIGN.md "Consent"). */
export interface TriggerDraft {
  arm: boolean;
  folderId?: string;
  displayPath?: string;
  /** Issue 18: a webhook's secret, made here or given by the sender (kept in memory only). */
  webhookSecret?: WebhookSecretDraft;
}

export interface ConsentDraft {
  step: number;
  /** agent id → access entry → kept (true) or unticked (false). Absent means the package's default: kept. */
  access: Record<string, Record<string, boolean>>;
  triggers: Record<string, TriggerDraft>;
}

const EMPTY: ConsentDraft = { step: 0, access: {}, triggers: {} };

export interface ConsentStore {
  drafts: Record<string, ConsentDraft>;
  /** Starts a draft from earlier choices (an update keeps them) unless one exists. */
  seed: (sourceId: string, draft: Partial<ConsentDraft>) => void;
  setStep: (sourceId: string, step: number) => void;
  setAccess: (sourceId: string, agentId: string, entry: string, kept: boolean) => void;
  setTrigger: (sourceId: string, triggerId: string, draft: TriggerDraft) => void;
  drop: (sourceId: string) => void;
}

export const useConsentStore = create<ConsentStore>((set) => ({
  drafts: {},
  seed: (sourceId, draft) => set((state) => (state.drafts[sourceId] ? state : { drafts: { ...state.drafts, [sourceId]: { ...EMPTY, ...draft } } })),
  setStep: (sourceId, step) => set((state) => ({ drafts: { ...state.drafts, [sourceId]: { ...(state.drafts[sourceId] ?? EMPTY), step } } })),
  setAccess: (sourceId, agentId, entry, kept) =>
    set((state) => {
      const draft = state.drafts[sourceId] ?? EMPTY;
      return { drafts: { ...state.drafts, [sourceId]: { ...draft, access: { ...draft.access, [agentId]: { ...draft.access[agentId], [entry]: kept } } } } };
    }),
  setTrigger: (sourceId, triggerId, trigger) =>
    set((state) => {
      const draft = state.drafts[sourceId] ?? EMPTY;
      return { drafts: { ...state.drafts, [sourceId]: { ...draft, triggers: { ...draft.triggers, [triggerId]: trigger } } } };
    }),
  drop: (sourceId) =>
    set((state) => {
      const { [sourceId]: _gone, ...rest } = state.drafts;
      void _gone;
      return { drafts: rest };
    }),
}));

/** The draft of a source (the empty draft until seeded). */
export function useConsentDraft(sourceId: string): ConsentDraft {
  return useConsentStore((state) => state.drafts[sourceId] ?? EMPTY);
}
