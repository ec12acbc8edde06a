/**
 * A template's layout, skills, rules and evals (spec: agentrun-template-packages.md, the folder
 * tree and "Eval cases"). Evals are checked for their layout and fields only; nothing runs. The
 * folders and root files are checked here; skills and rules in skills-and-rules.ts, eval cases in
 * eval-cases.ts.
 *
 * Decisions the spec leaves open (written down in resources/templates/README.md):
 * - Root files: `agent.md`, any file the package names (`output.schema`, a grader's `schema`), and
 *   `README.md`, `LICENSE`, `LICENSE.md`, `LICENSE.txt`, `CHANGELOG.md`. Anything else is refused.
 */
import type { TemplateEvalCase, TemplateRule, TemplateSkill } from '../../../shared/manifests/template-manifest';
import { checkEvals } from './eval-cases';
import { PartReader } from './part-reader';
import { checkRules, checkSkills } from './skills-and-rules';

/** Root files any template may hold besides agent.md and the files it names. */
export const ALLOWED_ROOT_FILES = ['README.md', 'LICENSE', 'LICENSE.md', 'LICENSE.txt', 'CHANGELOG.md'] as const;
/** The only folders a template holds at its root (spec: the folder tree). */
export const ALLOWED_ROOT_FOLDERS = ['skills', 'rules', 'evals'] as const;

/**
 * Checks the parts around agent.md, collecting problems in folder order: the layout here, the
 * skills and rules (skills-and-rules.ts), the eval cases (eval-cases.ts, their graders in eval-graders.ts).
 */
export class PackageParts extends PartReader {
  readonly skills: TemplateSkill[] = [];
  readonly rules: TemplateRule[] = [];
  readonly evals: TemplateEvalCase[] = [];

  /** Only skills/, rules/, evals/ as folders (DESIGN.md "Reading without running"). */
  folders(): void {
    for (const dir of this.directories) {
      const top = dir.split('/')[0] ?? '';
      if (!(ALLOWED_ROOT_FOLDERS as readonly string[]).includes(top)) {
        this.fail('template.layout', dir, `a template's only folders are skills/, rules/ and evals/`);
        return;
      }
    }
  }

  /** `skills/<name>/SKILL.md` each (skills-and-rules.ts); the accepted ones go to `skills`. */
  checkSkills(): void {
    this.skills.push(...checkSkills(this));
  }

  /** `rules/*.md` (skills-and-rules.ts); the accepted ones go to `rules`. */
  checkRules(): void {
    this.rules.push(...checkRules(this));
  }

  /** `evals/<case>/` each (eval-cases.ts); the accepted ones go to `evals`. */
  checkEvals(): void {
    this.evals.push(...checkEvals(this));
  }

  /** Root files: agent.md, the files the package names, and the allowed extras. */
  rootFiles(): void {
    const named = new Set(this.named);
    if (this.manifest?.output?.schema) named.add(this.manifest.output.schema);
    for (const path of [...this.files.keys()].sort()) {
      if (
        path.includes('/') ||
        path === 'agent.md' ||
        named.has(path) ||
        (ALLOWED_ROOT_FILES as readonly string[]).includes(path)
      )
        continue;
      this.fail(
        'template.layout',
        path,
        `a file at the root must be agent.md, a file the package names (output.schema, a grader's schema) or one of ${ALLOWED_ROOT_FILES.join(', ')}`,
      );
    }
  }
}
