import type { AgentView } from '../../../../shared/contract/api';
import type { TemplateManifest } from '../../../../shared/manifests/template-manifest';
import type { usePreviewApply } from '../../../api/hooks';
import { ErrorPanel, Loading } from '../../components/Status';
import { useApplyStore, type ApplyDraft } from '../../stores/apply-store';
import { TemplateAccess } from './TemplateAccess';
import { TemplateReview } from './TemplateReview';
import { TemplateTriggers } from './TemplateSteps';

/** The agents on this computer (not archived) with this display name: each apply makes a new agent (spec "Apply"). */
function sameName(agents: readonly AgentView[], displayName: string): AgentView[] {
  return agents.filter((agent) => !agent.archived && agent.displayName === displayName);
}

/** The steps drawn from the preview (Access, Triggers, Review): what `previewApply` answers, once it has. */
export function PreviewedStep({
  name,
  preview,
  sourceId,
  manifest,
  draft,
  sameNameAs,
}: {
  name: 'Access' | 'Triggers' | 'Review';
  preview: ReturnType<typeof usePreviewApply>;
  sourceId: string;
  manifest: TemplateManifest;
  draft: Pick<ApplyDraft, 'grants' | 'withhold' | 'approvals'> & { arm: string[] };
  sameNameAs: readonly AgentView[];
}) {
  const { setGrant, setArm, setWithhold, setApprovals } = useApplyStore();
  if (preview.isError)
    return <ErrorPanel error={preview.error} title="What apply would make could not be worked out" />;
  if (!preview.data) return <Loading label="Working out what apply would make…" />;
  if (name === 'Access')
    return (
      <TemplateAccess
        preview={preview.data}
        choices={{
          grants: draft.grants,
          onGrant: (gate, granted) => setGrant(sourceId, gate, granted),
          templateTools: manifest.tools ?? [],
          withhold: draft.withhold,
          onWithhold: (tool, withheld) => setWithhold(sourceId, tool, withheld),
          approvals: draft.approvals,
          onApprovals: (value) => setApprovals(sourceId, value),
          hasTriggers: (manifest.triggers ?? []).length > 0,
        }}
      />
    );
  if (name === 'Triggers')
    return (
      <TemplateTriggers
        preview={preview.data}
        armed={draft.arm}
        onArm={(trigger, armed) => setArm(sourceId, trigger, armed)}
      />
    );
  return (
    <TemplateReview
      preview={preview.data}
      armed={draft.arm}
      sameName={sameName(sameNameAs, preview.data.displayName)}
    />
  );
}
