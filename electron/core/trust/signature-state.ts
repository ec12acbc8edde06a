import type { Inspection } from '../../../shared/manifests/inspection';
import { BUILTIN, UNSIGNED } from '../../../shared/trust/trust';

/**
 * A template's or plugin manifest's summary gains its signature state: nothing
 * signs them, so `unsigned`, except a template that ships with the app (`builtin`). An `.apo`'s
 * state comes from its inspection (`summary.signature`) and is left as it is.
 */
export function withSignatureState(inspection: Inspection, builtin: boolean): Inspection {
  if (inspection.kind === 'apo' || inspection.summary === null || typeof inspection.summary !== 'object')
    return inspection;
  return {
    ...inspection,
    summary: { ...inspection.summary, signature: builtin && inspection.kind === 'template' ? BUILTIN : UNSIGNED },
  };
}
