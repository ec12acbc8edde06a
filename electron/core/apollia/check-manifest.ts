/**
 * The text-level check of an `.apo` manifest, given what the archive holds (DESIGN.md "Validation
 * contract"): TOML syntax → strict schema → the spec's rules, in the spec's table order → module
 * scan → SDK compatibility. Each stage runs only when the previous one found nothing, because it
 * reads what the previous one vouched for; all problems of the failing stage are returned, the
 * first one first. Warnings never refuse a package.
 */
import { type ApolliaManifest, isPinnedRequirement } from '../../../shared/manifests/apollia-manifest';
import { apolliaNativeTool, CONNECTION_TYPES } from '../../../shared/manifests/catalogues';
import type { ArchiveFileInfo, Problem } from '../../../shared/manifests/inspection';
import { SDK_VERSION } from '../../../shared/manifests/sdk';
import { inputsSchemaProblem } from './inputs-schema';
import { checkManifestSchema, parseManifestText } from './manifest-parse';
import { checkManifestRules } from './manifest-rules';
import { scanPythonModule } from './python-scan';
import { satisfiesRequirement } from './sdk-requirement';

/** What the check needs of an archive: its file list and the text of its Python modules. */
export interface ArchiveView {
  files: readonly Pick<ArchiveFileInfo, 'path'>[];
  /** Texts of every `*.py` file, by package-relative path. */
  pythonTexts: ReadonlyMap<string, string>;
}

/** The stage a check stopped at; `done` when every stage passed. */
export type ManifestStage = 'syntax' | 'schema' | 'rules' | 'modules' | 'sdk' | 'done';

/** The result of {@link checkApolliaManifest}. */
export interface ManifestCheck {
  ok: boolean;
  errors: Problem[];
  warnings: Problem[];
  /**
   * The manifest as parsed, whenever the TOML parsed (even if refused later); only typed data when
   * the schema accepted it (`stage` is not `schema`), so readers of a refused one must be careful.
   */
  manifest: ApolliaManifest | null;
  stage: ManifestStage;
  /** Whether this app's SDK satisfies `package.sdk` (false when the requirement is unreadable). */
  sdkSupported: boolean;
}

/**
 * Checks `apollia.toml` text against the spec and the archive it came in, without running anything
 * (Python modules are scanned as text).
 */
export function checkApolliaManifest(manifestText: string, archive: ArchiveView): ManifestCheck {
  const parsed = parseManifestText(manifestText);
  if (!parsed.ok)
    return { ok: false, errors: [parsed.error], warnings: [], manifest: null, stage: 'syntax', sdkSupported: false };
  const raw = parsed.data as unknown as ApolliaManifest;
  const rawSdk = (parsed.data.package as { sdk?: unknown } | undefined)?.sdk;
  const sdkSupported = typeof rawSdk === 'string' && satisfiesRequirement(SDK_VERSION, rawSdk);
  const refuse = (stage: ManifestStage, errors: Problem[], warnings: Problem[] = []): ManifestCheck => ({
    ok: false,
    errors,
    warnings,
    manifest: raw,
    stage,
    sdkSupported,
  });

  const schemaErrors = checkManifestSchema(parsed.data);
  if (schemaErrors.length > 0) return refuse('schema', schemaErrors);
  const inputsErrors = checkInputsSchemas(raw);
  if (inputsErrors.length > 0) return refuse('schema', inputsErrors);
  const manifest = raw;
  const warnings = manifestWarnings(manifest);

  const ruleErrors = checkManifestRules(manifest);
  if (ruleErrors.length > 0) return refuse('rules', ruleErrors, warnings);

  const moduleErrors = checkModules(manifest, archive, warnings);
  if (moduleErrors.length > 0) return refuse('modules', moduleErrors, warnings);

  if (!sdkSupported) {
    return refuse(
      'sdk',
      [
        {
          code: 'manifest.sdk_unsupported',
          message: `the package needs SDK \`${manifest.package.sdk}\`, but this app serves SDK ${SDK_VERSION}`,
          path: 'package.sdk',
        },
      ],
      warnings,
    );
  }
  return { ok: true, errors: [], warnings, manifest, stage: 'done', sdkSupported };
}

/** Each `inputs` table must compile as a JSON Schema; only run once the shape is known good. */
function checkInputsSchemas(manifest: ApolliaManifest): Problem[] {
  const problems: Problem[] = [];
  const check = (list: { inputs?: Record<string, unknown> }[] | undefined, table: string) => {
    (list ?? []).forEach((entry, i) => {
      if (entry.inputs === undefined) return;
      const why = inputsSchemaProblem(entry.inputs);
      if (why !== null) {
        const path = `${table}[${i}].inputs`;
        problems.push({
          code: 'manifest.bad_inputs_schema',
          message: `apollia.toml: \`${path}\` is not a valid JSON Schema: ${why}`,
          path,
        });
      }
    });
  };
  check(manifest.tools, 'tools');
  check(manifest.workflows, 'workflows');
  return problems;
}

/**
 * Warnings of DESIGN.md "Catalogues" and the spec: an access entry naming a native tool outside the
 * catalogue, a connection type outside it, the retired `requires_approval`, an unpinned pip
 * requirement (the spec says "Pin them"; the consent form flags it, it does not refuse).
 */
function manifestWarnings(manifest: ApolliaManifest): Problem[] {
  const warnings: Problem[] = [];
  (manifest.agents ?? []).forEach((agent, i) => {
    (agent.defaults?.access ?? []).forEach((access, j) => {
      if (/^(mcp|pkg|agent|workflow):/.test(access)) return;
      if (!apolliaNativeTool(access)) {
        warnings.push({
          code: 'package.manifest.unknown_tool',
          message: `agent \`${agent.id}\` grants \`${access}\`, which is not a native tool this app knows; it will not be offered until the runtime has it`,
          path: `agents[${i}].defaults.access[${j}]`,
        });
      }
    });
  });
  (manifest.requires ?? []).forEach((requirement, i) => {
    if (!CONNECTION_TYPES.some((known) => known.type === requirement.type)) {
      warnings.push({
        code: 'package.manifest.unknown_connection',
        message: `connection type \`${requirement.type}\` is not one this app knows`,
        path: `requires[${i}].type`,
      });
    }
  });
  (manifest.mcp_servers ?? []).forEach((server, i) => {
    if (server.requires_approval !== undefined) {
      warnings.push({
        code: 'package.manifest.retired_key',
        message: `\`mcp_servers[${i}].requires_approval\` is retired and does nothing: whether a call asks first is decided by the action family of each tool`,
        path: `mcp_servers[${i}].requires_approval`,
      });
    }
  });
  (manifest.pip?.packages ?? []).forEach((requirement, i) => {
    if (!isPinnedRequirement(requirement)) {
      warnings.push({
        code: 'package.manifest.unpinned_requirement',
        message: `pip requirement \`${requirement}\` is not pinned to one version (write it as name==version)`,
        path: `pip.packages[${i}]`,
      });
    }
  });
  return warnings;
}

/** Normalises a module path as written in the manifest (`./tools/x.py` → `tools/x.py`). */
function modulePath(module: string): string {
  return module.replace(/^(\.\/)+/, '');
}

/**
 * DESIGN.md "Module scan": each declared module exists in the archive, and no Python module
 * defines a tool or workflow the manifest does not describe (same kind, same name, same module).
 * A described function the scan cannot find only warns: a decorator written in a form the text
 * scan does not recognise must not refuse a package the author's own tooling built.
 */
function checkModules(manifest: ApolliaManifest, archive: ArchiveView, warnings: Problem[]): Problem[] {
  const problems: Problem[] = [];
  const files = new Set(archive.files.map((file) => file.path));
  const entries = [
    ...(manifest.tools ?? []).map((entry, i) => ({ kind: 'tool' as const, entry, path: `tools[${i}]` })),
    ...(manifest.workflows ?? []).map((entry, i) => ({ kind: 'workflow' as const, entry, path: `workflows[${i}]` })),
  ];
  for (const { entry, path } of entries) {
    if (!files.has(modulePath(entry.module))) {
      problems.push({
        code: 'manifest.module_missing',
        message: `\`${path}.module\` names \`${entry.module}\`, which is not in the archive`,
        path: `${path}.module`,
      });
    }
  }
  // Looked up by kind, name and module, never by scanning the entries for each function: a package
  // may hold thousands of each, and no package text may cost more than linear time (DESIGN.md).
  const key = (kind: string, name: string, module: string) => `${kind}\0${name}\0${module}`;
  const described = new Set(entries.map(({ kind, entry }) => key(kind, entry.name, modulePath(entry.module))));
  // A manifest name a Python function cannot have (`monthly-reminders`), by the function name it suggests.
  const pythonNamed = new Map(
    entries
      .filter(({ entry }) => entry.name.includes('-'))
      .map(({ kind, entry }) => [key(kind, entry.name.replaceAll('-', '_'), modulePath(entry.module)), entry.name]),
  );
  const found = new Set<string>();
  // The described tools and workflows whose module is missing, by kind and name (the first one named).
  const missingByName = new Map<string, string>();
  for (const { kind, entry } of entries) {
    const module = modulePath(entry.module);
    if (!files.has(module) && !missingByName.has(`${kind}\0${entry.name}`))
      missingByName.set(`${kind}\0${entry.name}`, entry.module);
  }
  for (const [file, text] of [...archive.pythonTexts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const fn of scanPythonModule(text)) {
      found.add(key(fn.kind, fn.name, file));
      if (!described.has(key(fn.kind, fn.name, file))) {
        const named = fn.name === fn.functionName ? '' : ` (as \`${fn.name}\`)`;
        const misplaced = missingByName.get(`${fn.kind}\0${fn.name}`);
        if (misplaced !== undefined) {
          // The manifest describes this very tool in a module that is not there: a misnamed file
          // (`extractor.py` named, `extract.py` shipped) is its author's slip, not a hidden tool.
          problems.push({
            code: 'manifest.module_misnamed',
            message: `module \`${file}\` defines the ${fn.kind} \`${fn.functionName}\`${named}, which the manifest describes in \`${misplaced}\`, a module not in the archive`,
            path: file,
          });
          continue;
        }
        const meant = pythonNamed.get(key(fn.kind, fn.name, file));
        const fix =
          meant === undefined
            ? ''
            : `: to make it the manifest's ${fn.kind} \`${meant}\` (not a Python name), decorate it \`@${fn.kind}(name="${meant}")\``;
        problems.push({
          code: 'manifest.undescribed_function',
          message: `module \`${file}\` defines the ${fn.kind} \`${fn.functionName}\`${named}, which the manifest does not describe${fix}`,
          path: file,
        });
      }
    }
  }
  for (const { kind, entry, path } of entries) {
    const module = modulePath(entry.module);
    if (files.has(module) && archive.pythonTexts.has(module) && !found.has(key(kind, entry.name, module))) {
      warnings.push({
        code: 'package.manifest.function_not_found',
        message: `no @${kind} function named \`${entry.name}\` was found in \`${entry.module}\``,
        path: `${path}.name`,
      });
    }
  }
  return problems;
}
