/**
 * Drafts of the template apply form, one per opened template: the step, the parameter fields as
 * typed, the owner's grants, and the request id made once per wizard so a repeated Apply makes one
 * agent (spec "Apply": the same idempotency key answers the first apply again).
 */
import { create } from 'zustand';
import type { Approvals } from '../../../shared/decisions/apply-context';

/** A field as the form holds it: text as typed, or a switch. */
export type FieldValue = string | boolean;

export interface ApplyDraft {
  step: number;
  values: Record<string, FieldValue>;
  touched: Record<string, boolean>;
  grants: string[];
  /** Trigger names the person ticked to arm (none is armed until ticked). */
  arm: string[];
  /** Built-in tools the person unticked: the agent gets them denied. */
  withhold: string[];
  /** The person's approvals choice; null asks before each tool (the template's recommendation is only shown). */
  approvals: Approvals | null;
  requestId: string;
}

export interface ApplyStore {
  drafts: Record<string, ApplyDraft>;
  seed: (sourceId: string, values: Record<string, FieldValue>) => void;
  setStep: (sourceId: string, step: number) => void;
  setValue: (sourceId: string, name: string, value: FieldValue) => void;
  touch: (sourceId: string, name: string) => void;
  setGrant: (sourceId: string, gateName: string, granted: boolean) => void;
  setArm: (sourceId: string, trigger: string, armed: boolean) => void;
  setWithhold: (sourceId: string, tool: string, withheld: boolean) => void;
  setApprovals: (sourceId: string, approvals: Approvals | null) => void;
  drop: (sourceId: string) => void;
}

function newRequestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function update(
  state: ApplyStore,
  sourceId: string,
  change: (draft: ApplyDraft) => ApplyDraft,
): Pick<ApplyStore, 'drafts'> {
  const draft = state.drafts[sourceId];
  if (!draft) return { drafts: state.drafts };
  return { drafts: { ...state.drafts, [sourceId]: change(draft) } };
}

export const useApplyStore = create<ApplyStore>((set) => ({
  drafts: {},
  seed: (sourceId, values) =>
    set((state) =>
      state.drafts[sourceId]
        ? state
        : {
            drafts: {
              ...state.drafts,
              [sourceId]: {
                step: 0,
                values,
                touched: {},
                grants: [],
                arm: [],
                withhold: [],
                approvals: null,
                requestId: newRequestId(),
              },
            },
          },
    ),
  setStep: (sourceId, step) => set((state) => update(state, sourceId, (d) => ({ ...d, step }))),
  setValue: (sourceId, name, value) =>
    set((state) =>
      update(state, sourceId, (d) => ({
        ...d,
        values: { ...d.values, [name]: value },
        touched: { ...d.touched, [name]: true },
      })),
    ),
  touch: (sourceId, name) =>
    set((state) => update(state, sourceId, (d) => ({ ...d, touched: { ...d.touched, [name]: true } }))),
  setGrant: (sourceId, gateName, granted) =>
    set((state) =>
      update(state, sourceId, (d) => ({
        ...d,
        grants: granted ? [...new Set([...d.grants, gateName])] : d.grants.filter((g) => g !== gateName),
      })),
    ),
  setArm: (sourceId, trigger, armed) =>
    set((state) =>
      update(state, sourceId, (d) => ({
        ...d,
        arm: armed ? [...new Set([...d.arm, trigger])] : d.arm.filter((t) => t !== trigger),
      })),
    ),
  setWithhold: (sourceId, tool, withheld) =>
    set((state) =>
      update(state, sourceId, (d) => ({
        ...d,
        withhold: withheld ? [...new Set([...d.withhold, tool])] : d.withhold.filter((t) => t !== tool),
      })),
    ),
  setApprovals: (sourceId, approvals) => set((state) => update(state, sourceId, (d) => ({ ...d, approvals }))),
  drop: (sourceId) =>
    set((state) => {
      const { [sourceId]: _gone, ...rest } = state.drafts;
      void _gone;
      return { drafts: rest };
    }),
}));
