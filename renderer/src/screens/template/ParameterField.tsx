import type { TemplateParameter } from '../../../../shared/manifests/template-manifest';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import type { FieldValue } from '../../stores/apply-store';

/**
 * One parameter, one control by its type (spec agent.md `parameters`): text, number, integer,
 * switch; `enum` as a choice. The description is beside it and is its hint; an error is inline,
 * tied to the control with aria-invalid and aria-describedby.
 */
export function ParameterField({
  name,
  def,
  value,
  error,
  note = null,
  showError,
  onChange,
  onBlur,
}: {
  name: string;
  def: TemplateParameter;
  value: FieldValue;
  error: string | null;
  note?: string | null;
  showError: boolean;
  onChange: (value: FieldValue) => void;
  onBlur: () => void;
}) {
  const id = `param-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = showError && error !== null;
  const noteId = `${id}-note`;
  const described = note !== null ? `${hintId} ${noteId}` : hintId;
  const describedBy = invalid ? `${described} ${errorId}` : described;
  const required = def.required === true && def.default === undefined;
  const label = (
    <label htmlFor={id}>
      {name} {required ? <span className="required">(required)</span> : <span className="muted small">(optional)</span>}
    </label>
  );
  let control;
  if (def.type === 'boolean' && !def.enum) {
    control = (
      <div className="switch-row">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={value === true}
          aria-checked={value === true}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={onBlur}
        />
        {label}
      </div>
    );
  } else if (def.enum) {
    control = (
      <>
        {label}
        <select
          id={id}
          value={String(value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          aria-required={required}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        >
          {required || def.default === undefined ? <option value="">Choose…</option> : null}
          {def.enum.map((choice) => (
            <option key={String(choice)} value={String(choice)}>
              {String(choice)}
            </option>
          ))}
        </select>
      </>
    );
  } else {
    control = (
      <>
        {label}
        <input
          id={id}
          type="text"
          inputMode={def.type === 'integer' ? 'numeric' : def.type === 'number' ? 'decimal' : 'text'}
          value={typeof value === 'string' ? value : String(value)}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          aria-required={required}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
      </>
    );
  }
  return (
    <div className="field">
      {control}
      <p id={hintId} className="hint">
        <PackageText text={def.description} multiline />
        {def.type === 'integer' ? ' (a whole number)' : def.type === 'number' ? ' (a number)' : ''}
        {def.default !== undefined && def.type !== 'boolean' ? (
          <>
            {' '}
            Default:{' '}
            <code>
              <PackageText text={String(def.default)} />
            </code>
          </>
        ) : null}
      </p>
      {note !== null ? (
        <p id={noteId} className="hint text-warning">
          <CodeText text={note} />
        </p>
      ) : null}
      {invalid ? (
        <p id={errorId} className="hint text-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
