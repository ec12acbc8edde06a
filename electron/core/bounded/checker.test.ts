import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, test } from 'vitest';
import { MAX_LISTED_PROBLEMS, MORE_PROBLEMS_CODE } from '../../../shared/manifests/inspection';
import { INVOICES_DIR, packFiles, packFolder } from '../../../test/helpers/pack';
import { inspectApo } from '../apollia/index';
import { inspectPluginManifest } from '../plugin/index';
import { writeTemplate } from '../../../test/helpers/template-folders';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import { readTemplateFolder } from '../template/index';
import { BoundedChecker, checkApo, checkPath, checkPluginManifest, checkTemplateFolder } from './index';
import { ownData } from './own-data';

const TEMPLATE = new URL('../../../resources/templates/code-review', import.meta.url).pathname;
const PLUGIN = new URL('../../../test/fixtures/plugin/crm-plugin.json', import.meta.url).pathname;
const dir = tempDir('apollia-bounded-');
const apo = join(dir, 'invoices.apo');
writeFileSync(apo, packFolder(INVOICES_DIR, { gzip: true }));

const checkers: BoundedChecker[] = [];
function checker(options: ConstructorParameters<typeof BoundedChecker>[0] = {}): BoundedChecker {
  const made = new BoundedChecker(options);
  checkers.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(checkers.map((c) => c.close()));
});

describe('the bounded worker answers what the readers answer in-thread', () => {
  const bounded = checker();

  test('an .apo: the same inspection, SHA-256 included', async () => {
    const direct = await inspectApo(apo);
    const inWorker = await checkApo(apo, [], bounded);
    expect(inWorker).toEqual(direct);
    expect(inWorker.ok).toBe(true);
    expect(inWorker.summary?.sha256).toBe(direct.summary?.sha256);
  });

  test('a template folder: the same inspection and the same bytes, as a Map of Uint8Array', async () => {
    const direct = await readTemplateFolder(TEMPLATE);
    const inWorker = await checkTemplateFolder(TEMPLATE, bounded);
    expect(inWorker.inspection).toEqual(direct.inspection);
    expect(inWorker.files).toBeInstanceOf(Map);
    expect([...inWorker.files.keys()].sort()).toEqual([...direct.files.keys()].sort());
    for (const [path, bytes] of direct.files)
      expect(Buffer.from(inWorker.files.get(path) as Uint8Array).equals(Buffer.from(bytes))).toBe(true);
  });

  test('a plugin manifest, and any path by content', async () => {
    expect(await checkPluginManifest(PLUGIN, bounded)).toEqual(await inspectPluginManifest(PLUGIN));
    expect((await checkPath(TEMPLATE, [], bounded)).kind).toBe('template');
    expect((await checkPath(apo, [], bounded)).kind).toBe('apo');
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a package');
    expect((await checkPath(junk, [], bounded)).errors).toEqual([
      { code: 'input.not_a_package', message: expect.stringContaining('is not a package') },
    ]);
  });

  test('a package breaking one rule 60,000 times: the first 99 problems and a count, from the .apo job and the by-content job the CLI runs', async () => {
    // 60,000 `@tool` functions the manifest does not describe: a 160 KB package (gzip), which once
    // made a 60,000-item list that took the app 5 s to show and 12 MB of `inspect --json`.
    const module = `from apollia import tool\n${Array.from({ length: 60_000 }, (_, i) => `@tool\ndef f${i}():\n    pass\n`).join('')}`;
    const many = join(dir, 'many.apo');
    writeFileSync(
      many,
      packFiles({
        'apollia.toml': readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8'),
        'tools/extract.py': readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
        'tools/many.py': module,
        'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
      }),
    );
    expect((await inspectApo(many)).errors).toHaveLength(60_000);
    for (const inspection of [await checkApo(many, [], bounded), await checkPath(many, [], bounded)]) {
      expect(inspection.ok).toBe(false);
      expect(inspection.errors).toHaveLength(MAX_LISTED_PROBLEMS);
      expect(inspection.errors[0]).toEqual({
        code: 'manifest.undescribed_function',
        message: 'module `tools/many.py` defines the tool `f0`, which the manifest does not describe',
        path: 'tools/many.py',
      });
      expect(inspection.errors.at(-1)).toEqual({
        code: MORE_PROBLEMS_CODE,
        message: '59,901 more errors are not listed: fix the ones above, then inspect the package again to see them',
      });
    }
  });

  test('a template with 150 unknown fields: its errors are listed the same way by the template job', async () => {
    const folder = writeTemplate((manifest) => {
      for (let i = 0; i < 150; i++) Object.assign(manifest, { [`unknown_${i}`]: i });
    });
    expect((await readTemplateFolder(folder)).inspection.errors).toHaveLength(150);
    const { inspection } = await checkTemplateFolder(folder, bounded);
    expect(inspection.errors).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(inspection.errors.at(-1)?.message).toBe(
      '51 more errors are not listed: fix the ones above, then inspect the package again to see them',
    );
  });

  test('parsed data comes back as own-property data: objects with a null prototype', async () => {
    const inWorker = await checkApo(apo, [], bounded);
    expect(Object.getPrototypeOf(inWorker)).toBeNull();
    expect(Object.getPrototypeOf(inWorker.details?.manifest)).toBeNull();
    expect(Object.getPrototypeOf(inWorker.details?.manifest.package)).toBeNull();
  });

  test('one worker serves every job, jobs queued behind each other', async () => {
    const one = checker();
    const results = await Promise.all([
      checkApo(apo, [], one),
      checkTemplateFolder(TEMPLATE, one),
      checkPluginManifest(PLUGIN, one),
    ]);
    expect(results.map((r) => ('inspection' in r ? r.inspection.ok : r.ok))).toEqual([true, true, true]);
    expect(one.workersStarted).toBe(1);
  });

  test('a worker started ahead of its first job (the CLI) serves that job; a wrong or missing path hint is harmless', async () => {
    const early = checker();
    early.start(apo);
    expect(early.workersStarted).toBe(1);
    expect((await checkPath(apo, [], early)).ok).toBe(true);
    expect(early.workersStarted).toBe(1);
    const wrong = checker();
    wrong.start(join(dir, 'no-such-file'));
    expect((await checkPath(TEMPLATE, [], wrong)).kind).toBe('template');
    expect(wrong.workersStarted).toBe(1);
  });
});

describe('a checker in a process with nothing else to do', () => {
  test('warm() resolves (the worker is held alive until loaded), and the process then ends (an idle worker holds nothing)', () => {
    const script = join(dir, 'warm.mts');
    const checkerModule = new URL('./checker.ts', import.meta.url).pathname;
    writeFileSync(
      script,
      `const { BoundedChecker } = await import(${JSON.stringify(checkerModule)});\nconst checker = new BoundedChecker();\nawait checker.warm();\nconsole.log('warmed', checker.workersStarted);\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
    expect([run.status, run.signal, run.stdout]).toEqual([0, null, 'warmed 1\n']);
  });
});

describe('loadReaderFor (the hint of a worker started early)', () => {
  test('never throws, whatever the path', async () => {
    const { loadReaderFor } = await import('./jobs');
    await expect(loadReaderFor(apo)).resolves.toBeUndefined();
    await expect(loadReaderFor(join(dir, 'no-such-file'))).resolves.toBeUndefined();
    await expect(loadReaderFor(dir)).resolves.toBeUndefined();
  });
});

describe('a job over budget is refused, and the app keeps answering', () => {
  test('a busy job is ended and refused inspect.too_slow while appInfo answers first', async () => {
    const slow = checker({ budgetMs: 1_000, testMode: 'slow' });
    const { api } = testApi();
    const order: string[] = [];
    const inspecting = checkApo(apo, [], slow).then((result) => {
      order.push('inspection');
      return result;
    });
    const info = api.appInfo({}).then((result) => {
      order.push('appInfo');
      return result;
    });
    const [inspection, answered] = await Promise.all([inspecting, info]);
    expect(order).toEqual(['appInfo', 'inspection']);
    expect(answered.ok).toBe(true);
    expect(inspection.ok).toBe(false);
    expect(inspection.kind).toBe('apo');
    expect(inspection.summary).toBeNull();
    expect(inspection.errors).toEqual([
      {
        code: 'inspect.too_slow',
        message:
          'checking this package took longer than 1 second, so it was stopped and refused: a package this app can check is read in well under a second',
      },
    ]);
  });

  test('after a refusal the next job runs in a fresh worker', async () => {
    const slow = checker({ budgetMs: 300, testMode: 'slow' });
    const first = await checkTemplateFolder(TEMPLATE, slow);
    expect(first.inspection.errors[0]?.code).toBe('inspect.too_slow');
    expect(first.files.size).toBe(0);
    const second = await checkPluginManifest(PLUGIN, slow);
    expect(second.errors[0]?.code).toBe('inspect.too_slow');
    expect(slow.workersStarted).toBe(2);
  });

  test('a job that outgrows the heap cap is refused inspect.too_large', async () => {
    const hungry = checker({
      testMode: 'hungry',
      resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 },
      budgetMs: 60_000,
    });
    const result = await checkPluginManifest(PLUGIN, hungry);
    expect(result).toEqual({
      kind: 'plugin',
      ok: false,
      warnings: [],
      summary: null,
      details: null,
      errors: [
        {
          code: 'inspect.too_large',
          message:
            'checking this package needed more memory than the app allows, so it was stopped and refused: its contents are too large or too deeply nested to check safely',
        },
      ],
    });
  });
});

describe('data that crossed a structured clone', () => {
  /** Posts `value` through a real worker port (the clone the checker's results go through). */
  async function throughWorker(value: unknown): Promise<unknown> {
    const worker = new Worker(
      'require("node:worker_threads").parentPort.on("message", (m) => require("node:worker_threads").parentPort.postMessage(m))',
      { eval: true },
    );
    try {
      return await new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(value);
      });
    } finally {
      await worker.terminate();
    }
  }

  test('a __proto__ key stays own data, and ownData gives objects back their null prototype', async () => {
    const parsed = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(parsed, '__proto__', {
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    Object.assign(parsed, { constructor: 'a tool name' });
    parsed.nested = new Map([['__proto__', Object.assign(Object.create(null), { toString: 1 })]]);

    const cloned = (await throughWorker(parsed)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(cloned)).toBe(Object.prototype); // the clone drops the null prototype…
    expect(Object.keys(cloned)).toEqual(['__proto__', 'constructor', 'nested']); // …but keeps __proto__ as an own key
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const restored = ownData(cloned);
    expect(Object.getPrototypeOf(restored)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(restored, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(restored.__proto__)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(restored, 'constructor')?.value).toBe('a tool name');
    const nested = restored.nested as Map<string, Record<string, unknown>>;
    expect(nested).toBeInstanceOf(Map);
    expect(Object.getPrototypeOf(nested.get('__proto__'))).toBeNull();
    expect(nested.get('__proto__')?.toString).toBe(1);
    expect('hasOwnProperty' in restored).toBe(false);
  });

  test('typed arrays and arrays keep their kind', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const restored = ownData({ list: [{ a: 1 }], bytes });
    expect(Array.isArray(restored.list)).toBe(true);
    expect(Object.getPrototypeOf(restored.list[0])).toBeNull();
    expect(restored.bytes).toBe(bytes);
  });
});
