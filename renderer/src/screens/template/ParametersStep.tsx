import type { TemplateParameter } from '../../../../shared/manifests/template-manifest';
import { PackageText } from '../../components/PackageText';
import { useApplyStore, type FieldValue } from '../../stores/apply-store';
import { ParameterField } from './ParameterField';

/** The Parameters step: one field per parameter, and the agent's name as the values make it. */
export function ParametersStep({
  sourceId,
  parameters,
  values,
  errors,
  notes,
  touched,
  liveName,
}: {
  sourceId: string;
  parameters: Record<string, TemplateParameter>;
  values: Record<string, FieldValue>;
  errors: Record<string, string | null>;
  notes: Map<string, string>;
  touched: Record<string, boolean>;
  liveName: string;
}) {
  const { setValue, touch } = useApplyStore();
  return (
    <div className="step-body">
      {Object.keys(parameters).length === 0 ? <p className="muted">This template has no parameters.</p> : null}
      <p className="small muted">
        The agent will be called:{' '}
        <strong>
          <PackageText text={liveName} />
        </strong>
      </p>
      {Object.entries(parameters).map(([param, def]) => (
        <ParameterField
          key={param}
          name={param}
          def={def}
          value={values[param] ?? ''}
          error={errors[param] ?? null}
          note={notes.get(param) ?? null}
          showError={touched[param] === true}
          onChange={(value) => setValue(sourceId, param, value)}
          onBlur={() => touch(sourceId, param)}
        />
      ))}
    </div>
  );
}
