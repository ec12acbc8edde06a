import { FileArchive, FolderOpen, LayoutTemplate, Upload } from 'lucide-react';
import { useBuiltinTemplates, useOpenBuiltinTemplate, useOpenDialog } from '../../api/hooks';
import { CodeText } from '../components/CodeText';
import { PackageText } from '../components/PackageText';
import { ErrorPanel, Loading } from '../components/Status';
import { useFlowStore } from '../stores/flow-store';

/** One built-in template as the gallery shows it (the fields `listBuiltinTemplates` answers). */
interface GalleryItem {
  name: string;
  title: string;
  description: string;
  startedBy: string;
  needs: string;
  /** False when the shipped folder fails its own check: shown, never applied. */
  ok: boolean;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string').join(', ');
  return '';
}

function toGalleryItem(raw: unknown): GalleryItem | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  const name = text(r.name);
  if (name === '') return null;
  return {
    name,
    title: text(r.title ?? r.displayName ?? r.display_name) || name,
    description: text(r.description ?? r.whatItDoes),
    startedBy: text(r.startedBy ?? r.started_by),
    needs: text(r.needs),
    ok: r.ok !== false,
  };
}

/** The first screen: drop zone, open buttons and the gallery of built-in templates. */
export function OpenScreen() {
  const openSource = useFlowStore((s) => s.openSource);
  const dialog = useOpenDialog();
  const builtin = useOpenBuiltinTemplate();
  const templates = useBuiltinTemplates();

  const open = (kind: 'file' | 'folder') =>
    dialog.mutate(
      { kind },
      {
        onSuccess: (source) => {
          if (source) openSource(source);
        },
      },
    );

  return (
    <div className="screen">
      <h1>Open a package</h1>
      <p className="lead">
        Apollia reads and checks a package without running any of its code, then shows you what it could do before
        anything is installed.
      </p>
      <section className="drop-zone" aria-labelledby="drop-heading">
        <Upload aria-hidden="true" size={32} />
        <h2 id="drop-heading">Drop a .apo file anywhere on this window</h2>
        <p className="muted">or choose one:</p>
        <div className="button-row">
          <button
            type="button"
            className="button button-primary"
            onClick={() => open('file')}
            disabled={dialog.isPending}
          >
            <FileArchive aria-hidden="true" size={16} /> Open a package…
          </button>
          <button type="button" className="button" onClick={() => open('folder')} disabled={dialog.isPending}>
            <FolderOpen aria-hidden="true" size={16} /> Open a template folder…
          </button>
        </div>
      </section>
      {dialog.isError ? <ErrorPanel error={dialog.error} title="The package could not be opened" /> : null}
      {builtin.isPending ? <Loading label="Opening the template…" /> : null}
      {builtin.isError ? <ErrorPanel error={builtin.error} title="The template could not be opened" /> : null}

      <section aria-labelledby="gallery-heading">
        <h2 id="gallery-heading">
          <LayoutTemplate aria-hidden="true" size={20} /> Built-in templates
        </h2>
        {templates.isPending ? <Loading label="Loading the built-in templates…" /> : null}
        {templates.isError ? (
          <ErrorPanel error={templates.error} title="The built-in templates could not be listed" />
        ) : null}
        {templates.data ? (
          templates.data.length === 0 ? (
            <p className="muted">No built-in templates ship with this version.</p>
          ) : (
            <ul className="card-grid">
              {templates.data
                .map(toGalleryItem)
                .filter((item): item is GalleryItem => item !== null)
                .map((item) => (
                  <li key={item.name} className="card">
                    <h3>
                      <PackageText text={item.title} />
                    </h3>
                    <p>
                      <CodeText text={item.description} />
                    </p>
                    <dl className="facts">
                      {item.startedBy ? (
                        <>
                          <dt>Started by</dt>
                          <dd>
                            <CodeText text={item.startedBy} />
                          </dd>
                        </>
                      ) : null}
                      {item.needs ? (
                        <>
                          <dt>Needs</dt>
                          <dd>
                            <CodeText text={item.needs} />
                          </dd>
                        </>
                      ) : null}
                    </dl>
                    {item.ok ? null : (
                      <p className="small text-error">
                        This built-in template fails its own check and cannot be applied.
                      </p>
                    )}
                    <button
                      type="button"
                      className="button"
                      aria-label={`Use this template: ${item.title}`}
                      disabled={builtin.isPending || !item.ok}
                      onClick={() => builtin.mutate({ name: item.name }, { onSuccess: openSource })}
                    >
                      Use this template
                    </button>
                  </li>
                ))}
            </ul>
          )
        ) : null}
      </section>
    </div>
  );
}
