/**
 * Drafts of the `.apo` consent form, one per opened source, so switching between opened packages
 * keeps each person's answers (UI flow state: STYLE.md "State in the renderer").
 */
import { create } from 'zustand';
import type { AccessAnswer } from '../../../shared/decisions/decisions';
import type { WebhookSecretDraft } from '../components/webhook-secret-draft';

/** The person's answer for one trigger: present only once they touched it (absent: kept, or off on a first install). */
export interface TriggerDraft {
  arm: boolean;
  folderId?: string;
  displayPath?: string;
  /** A webhook's secret: kept (when it has one), made here, or given by the sender (kept in memory only). */
  webhookSecret?: WebhookSecretDraft;
}

/**
 * The person's answers on the form: only what they touched. Absent means untouched: kept (an
 * update) or the default (a first install), as the one decision function (`shared/decisions/decisions.ts`)
 * decides; the form shows its decisions, never a second copy of them.
 */
export interface ConsentDraft {
  step: number;
  /**
   * agent id → access entry → the answer: granted, withheld, or granted with "asks first" / "runs without asking"
   * chosen.
   */
  access: Record<string, Record<string, AccessAnswer>>;
  triggers: Record<string, TriggerDraft>;
}

const EMPTY: ConsentDraft = { step: 0, access: {}, triggers: {} };

export interface ConsentStore {
  drafts: Record<string, ConsentDraft>;
  /** Starts a draft from earlier choices (an update keeps them) unless one exists. */
  seed: (sourceId: string, draft: Partial<ConsentDraft>) => void;
  setStep: (sourceId: string, step: number) => void;
  setAccess: (sourceId: string, agentId: string, entry: string, answer: AccessAnswer) => void;
  setTrigger: (sourceId: string, triggerId: string, draft: TriggerDraft) => void;
  drop: (sourceId: string) => void;
}

export const useConsentStore = create<ConsentStore>((set) => ({
  drafts: {},
  seed: (sourceId, draft) =>
    set((state) =>
      state.drafts[sourceId] ? state : { drafts: { ...state.drafts, [sourceId]: { ...EMPTY, ...draft } } },
    ),
  setStep: (sourceId, step) =>
    set((state) => ({ drafts: { ...state.drafts, [sourceId]: { ...(state.drafts[sourceId] ?? EMPTY), step } } })),
  setAccess: (sourceId, agentId, entry, answer) =>
    set((state) => {
      const draft = state.drafts[sourceId] ?? EMPTY;
      return {
        drafts: {
          ...state.drafts,
          [sourceId]: {
            ...draft,
            access: { ...draft.access, [agentId]: { ...draft.access[agentId], [entry]: answer } },
          },
        },
      };
    }),
  setTrigger: (sourceId, triggerId, trigger) =>
    set((state) => {
      const draft = state.drafts[sourceId] ?? EMPTY;
      return {
        drafts: { ...state.drafts, [sourceId]: { ...draft, triggers: { ...draft.triggers, [triggerId]: trigger } } },
      };
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
