import type { Inspection } from '../../../../shared/inspection';

/** The template apply wizard (in progress). */
export function TemplateFlow({ inspection, sourceId }: { inspection: Inspection; sourceId: string }) {
  void inspection;
  void sourceId;
  return (
    <div className="screen">
      <h1>Apply a template</h1>
      <p>The apply form for templates is being built.</p>
    </div>
  );
}
