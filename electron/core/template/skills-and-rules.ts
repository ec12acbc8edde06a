/**
 * A template's skills and rules (spec: agentrun-template-packages.md, the folder tree): each
 * `skills/<name>/` holds a SKILL.md, and `rules/` holds Markdown each skill reads.
 *
 * Decisions the spec leaves open (written down in resources/templates/README.md):
 * - `skills/<name>/` may hold other files beside SKILL.md (references, examples): they are data.
 * - `rules/` holds only `*.md` files, no folders.
 * - SKILL.md front matter takes the Agent Skills fields `name`, `description`, `license`,
 *   `compatibility`, `metadata`, `allowed-tools`; any other field is refused.
 * - `${parameters.…}` in a skill or rule is refused: apply never fills those files.
 */
import { hasPlaceholder, type TemplateRule, type TemplateSkill } from '../../../shared/manifests/template-manifest';
import { readFrontMatter } from './front-matter';
import { isObject } from './front-matter-fields';
import type { PartReader } from './part-reader';
import { unknownKeys } from '../schema/strict-fields';

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKILL_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/**
 * `skills/<name>/SKILL.md`: front matter names the skill (= its folder) and describes it.
 * Returns the skills accepted whole, by folder name; the problems go to `reader`.
 */
export function checkSkills(reader: PartReader): TemplateSkill[] {
  const skills: TemplateSkill[] = [];
  const skillDirs = new Set<string>();
  for (const path of reader.files.keys()) {
    if (!path.startsWith('skills/')) continue;
    const parts = path.split('/');
    if (parts.length < 3) {
      reader.fail('template.layout', path, 'skills/ holds one folder per skill, each with a SKILL.md');
      continue;
    }
    skillDirs.add(parts[1] ?? '');
  }
  for (const dir of reader.directories) {
    const parts = dir.split('/');
    if (parts[0] === 'skills' && parts.length === 2) skillDirs.add(parts[1] ?? '');
  }
  for (const name of [...skillDirs].sort()) {
    const path = `skills/${name}/SKILL.md`;
    if (!reader.files.has(path)) {
      reader.fail('template.skill', path, `skill folder skills/${name}/ has no SKILL.md`);
      continue;
    }
    const text = reader.text(path);
    if (text === null) continue;
    const read = readFrontMatter(text, path);
    if (!read.ok) {
      reader.errors.push(read.problem);
      continue;
    }
    const data = read.value.data;
    if (!isObject(data)) {
      reader.fail('template.skill', path, 'front matter must be a map with name and description');
      continue;
    }
    const before = reader.errors.length;
    for (const key of unknownKeys(data, SKILL_FIELDS))
      reader.fail(
        'template.unknown_field',
        path,
        `unknown field \`${key}\` (a skill takes ${SKILL_FIELDS.join(', ')})`,
      );
    if (typeof data.name !== 'string' || data.name !== name) {
      reader.fail('template.skill', path, `\`name\` must be the skill's folder name, \`${name}\``);
    } else if (!SKILL_NAME.test(name) || name.length > 64) {
      reader.fail(
        'template.skill',
        path,
        `skill name \`${name}\` must be lowercase letters and digits joined by single dashes, at most 64`,
      );
    }
    if (typeof data.description !== 'string' || data.description.trim() === '' || data.description.length > 1024) {
      reader.fail(
        'template.skill',
        path,
        '`description` is required: what the skill does and when to use it (at most 1024 characters)',
      );
    }
    if (hasPlaceholder(read.value.body)) {
      reader.fail(
        'template.placeholder',
        path,
        'holds `${parameters.…}`: apply fills only display_name, the body, trigger inputs, schedules and pins, never a skill',
      );
    }
    if (reader.errors.length === before)
      skills.push({ name, description: data.description as string, body: read.value.body });
  }
  return skills;
}

/**
 * `rules/*.md`: plain Markdown each skill reads; apply copies them beside each SKILL.md.
 * Returns the rules accepted, by path order; the problems go to `reader`.
 */
export function checkRules(reader: PartReader): TemplateRule[] {
  const rules: TemplateRule[] = [];
  for (const path of [...reader.files.keys()].sort()) {
    if (!path.startsWith('rules/')) continue;
    const parts = path.split('/');
    if (parts.length !== 2 || !path.endsWith('.md')) {
      reader.fail('template.layout', path, 'rules/ holds only Markdown files (rules/<name>.md), no folders');
      continue;
    }
    const body = reader.text(path);
    if (body === null) continue;
    if (hasPlaceholder(body)) {
      reader.fail('template.placeholder', path, 'holds `${parameters.…}`: apply never fills a rule');
      continue;
    }
    rules.push({ file: parts[1] ?? '', body });
  }
  return rules;
}
