/**
 * Front matter of a Markdown file, parsed with the `yaml` package as data only (DESIGN.md "Reading
 * without running": never gray-matter, which evaluates a `---js` block as code).
 *
 * The YAML is held to plain data: explicit tags (`!!js/function`, `!foo`, even `!!str`) and
 * anchors/aliases are refused, keys must be unique, and only one document may follow `---`.
 */
import YAML, { isAlias, isNode } from 'yaml';
import type { Problem } from '../../../shared/manifests/inspection';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/** A Markdown file split into its front matter (as plain data) and its body. */
export interface FrontMatter {
  data: unknown;
  body: string;
}

/** What reading front matter gave: the parts, or the problem that stopped it. */
export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; problem: Problem };

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*\r?$/m;

/**
 * Splits `text` at its `---` fences and parses the YAML between them. `path` names the file in
 * problems. A file with no front matter, a syntax error, a tag or an alias is refused.
 */
export function readFrontMatter(text: string, path: string): FrontMatterResult {
  const fail = (code: RefusalCode, message: string): FrontMatterResult => ({
    ok: false,
    problem: { code, path, message: `${path}: ${message}` },
  });
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const open = OPEN.exec(source);
  if (!open) return fail('template.front_matter', 'must start with `---` front matter');
  const rest = source.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) return fail('template.front_matter', 'front matter has no closing `---`');
  const yamlText = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  let doc: YAML.Document.Parsed;
  try {
    doc = YAML.parseDocument(yamlText, { uniqueKeys: true, prettyErrors: false, version: '1.2' });
  } catch (error) {
    return fail(
      'template.yaml',
      `front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const first = doc.errors[0];
  if (first) {
    const where = first.linePos?.[0] ? ` (line ${first.linePos[0].line + 1}, column ${first.linePos[0].col})` : '';
    return fail('template.yaml', `front matter is not valid YAML${where}: ${first.message.split('\n')[0]}`);
  }
  let refusal: FrontMatterResult | null = null;
  YAML.visit(doc, (_key, node) => {
    if (isAlias(node)) {
      refusal = fail('template.yaml_alias', `YAML aliases (\`*${node.source}\`) are not allowed: write the value out`);
      return YAML.visit.BREAK;
    }
    if (isNode(node) && node.anchor) {
      refusal = fail('template.yaml_alias', `YAML anchors (\`&${node.anchor}\`) are not allowed: write the value out`);
      return YAML.visit.BREAK;
    }
    if (isNode(node) && node.tag) {
      refusal = fail('template.yaml_tag', `YAML tags (\`${node.tag}\`) are not allowed: front matter is plain data`);
      return YAML.visit.BREAK;
    }
    return undefined;
  });
  if (refusal) return refusal;
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    return fail(
      'template.yaml',
      `front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { ok: true, value: { data: data ?? {}, body } };
}
