import { APP_DOWNLOAD_PAGE_SHOWN } from '../base/app-links';
import { describe, expect, it } from 'vitest';
import {
  authorMessage,
  inspectCommand,
  packCommand,
  needsNewerApp,
  REFUSAL_ROWS,
  type RefusalActor,
  refusalAdvice,
  refusalAdviceFor,
} from './refusal-actor';

/**
 * Every refusal code the checkers answer with, and who acts on it (DESIGN.md "Consent, install,
 * apply"): one row per code, so a code moved from one group to another is a reviewed diff.
 */
const WHO: Record<RefusalActor, string[]> = {
  user: [
    'archive.empty',
    'archive.truncated',
    'archive.corrupt_gzip',
    'archive.corrupt_header',
    'archive.trailing_data',
    'archive.not_archive',
    'archive.unsupported_format',
    'archive.unreadable',
    'archive.sha256_mismatch',
    'archive.write_failed',
    'archive.destination_exists',
    'manifest.sdk_unsupported',
    'source.not_found',
    'source.unreadable',
    'source.not_a_file',
    'source.unknown',
    'input.not_a_package',
    'input.not_found',
    'input.unreadable',
    'template.unbuilt_apo',
    'template.not_a_folder',
    'template.not_found',
    'template.unreadable',
    'template.changed',
    'plugin.unreadable',
    'plugin.not_a_file',
    'signature.unreadable',
    'signature.key_changed',
  ],
  nobody: [
    'archive.symlink',
    'archive.hardlink',
    'archive.device',
    'archive.fifo',
    'archive.traversal',
    'archive.absolute_path',
    'archive.drive_relative',
    'archive.name_collision',
    'archive.pax_global',
    'archive.ambiguous_name',
    'archive.ambiguous_size',
    'manifest.undescribed_function',
    'signature.invalid',
  ],
  administrator: ['policy.blocked_package', 'policy.blocked_publisher', 'policy.unsigned', 'policy.unreadable'],
  author: [
    'archive.corrupt_pax',
    'archive.repeated_metadata',
    'archive.unsupported_type',
    'archive.pax_size',
    'archive.metadata_too_large',
    'archive.bad_encoding',
    'archive.empty_name',
    'archive.control_char',
    'archive.path_too_long',
    'archive.backslash',
    'archive.bad_path',
    'archive.too_deep',
    'archive.reserved_name',
    'archive.forbidden_char',
    'archive.trailing_dot_or_space',
    'archive.duplicate',
    'archive.file_dir_conflict',
    'archive.too_many_entries',
    'archive.file_too_large',
    'archive.total_too_large',
    'archive.manifest_too_large',
    'archive.python_too_large',
    'archive.manifest_encoding',
    'archive.no_manifest',
    'archive.multiple_manifests',
    'archive.manifest_not_at_root',
    'archive.apple_double_orphan',
    'manifest.syntax',
    'manifest.unknown_key',
    'manifest.missing_key',
    'manifest.wrong_type',
    'manifest.bad_value',
    'manifest.bad_cron',
    'manifest.bad_interval',
    'manifest.bad_inputs_schema',
    'manifest.empty_package',
    'manifest.bad_identifier',
    'manifest.bad_version',
    'manifest.bad_sdk_requirement',
    'manifest.duplicate_identifier',
    'manifest.unknown_package_tool',
    'manifest.unknown_trigger_target',
    'manifest.module_missing',
    'manifest.module_misnamed',
    'manifest.too_many',
    'inspect.too_large',
    'inspect.too_slow',
    'signature.malformed',
    'signature.unknown_algorithm',
    'signature.too_large',
    'signature.key_id_mismatch',
    'signature.legacy_too_large',
    'template.agent_md_missing',
    'template.unknown_field',
    'template.missing_field',
    'template.invalid_field',
    'template.link',
    'template.special_file',
    'template.too_large',
    'template.too_many_files',
    'template.yaml',
    'template.yaml_alias',
    'template.yaml_tag',
    'template.cron',
    'template.timezone',
    'template.pin',
    'template.unknown_tool',
    'template.unknown_secret',
    'template.mcp_wildcard',
    'plugin.not_a_manifest',
    'plugin.json_syntax',
    'plugin.unknown_field',
    'plugin.missing_field',
    'something.new',
  ],
};

const TITLES: Record<RefusalActor, string> = {
  user: 'You can fix this',
  author: 'Its author must fix this',
  administrator: 'Your organization does not allow this',
  nobody: "Don't install this",
};

describe('the refusal table: who acts on each code', () => {
  for (const [actor, codes] of Object.entries(WHO) as [RefusalActor, string[]][]) {
    it.each(codes)(`%s is for ${actor}`, (code) => {
      const advice = refusalAdvice(code);
      expect(advice.actor).toBe(actor);
      expect(advice.title).toBe(TITLES[actor]);
      expect(advice.action.length).toBeGreaterThan(20);
      // The reason is said for the code: only the author's refusals say the rules were broken.
      expect(advice.why.includes('rules'), advice.why).toBe(actor === 'author');
    });
  }

  it('every row of the table is in this test, in its group', () => {
    for (const [code, row] of REFUSAL_ROWS) expect(WHO[row.actor], code).toContain(code);
  });

  it('a prototype key is not a code it knows', () => {
    expect(refusalAdvice('__proto__').actor).toBe('author');
    expect(refusalAdvice('constructor').actor).toBe('author');
  });
});

describe('the words are right for each code', () => {
  it('a 0-byte file is an unfinished download, not "open the .apo file itself"', () => {
    const advice = refusalAdvice('archive.empty');
    expect(advice.action).toBe(
      'The file is empty (0 bytes): the download or copy did not finish. Download the package again.',
    );
    expect(advice.why).toBe('the file is empty');
  });

  it('a too-old app says what to install and where to get it, and offers the download page', () => {
    const advice = refusalAdvice('manifest.sdk_unsupported');
    expect(advice.action).toContain(`Install the newest Apollia Desktop (from ${APP_DOWNLOAD_PAGE_SHOWN}`);
    expect(advice.why).toBe('it was made for a newer Apollia Desktop than this one');
    expect(advice.updateApp).toBe(true);
    expect(refusalAdvice('store.future_version').updateApp).toBe(true);
  });

  it('only a refusal a newer app fixes offers the download page', () => {
    const offering = [...REFUSAL_ROWS.keys()].filter((code) => refusalAdvice(code).updateApp);
    expect(offering).toEqual(['manifest.sdk_unsupported']);
    expect(needsNewerApp('store.future_version')).toBe(true);
    expect(refusalAdvice('manifest.bad_version').updateApp).toBe(false);
    expect(refusalAdvice('policy.blocked_package').updateApp).toBe(false);
  });

  it('a signature that does not match says so, not that a rule was broken', () => {
    const advice = refusalAdvice('signature.invalid');
    expect(advice.why).toBe('its signature does not match its contents');
    expect(advice.action).toContain('changed after it was signed');
  });

  it("the organization's policy sends the person to the administrator", () => {
    expect(refusalAdvice('policy.blocked_package').action).toContain('administrator');
  });

  it('the author is told to copy the message, which the screen offers', () => {
    expect(refusalAdvice('manifest.bad_version').action).toContain('Copy the message for the author');
  });
});

describe('refusalAdviceFor: one answer for all the problems of an input', () => {
  it('a sign of malice anywhere outweighs the first problem', () => {
    expect(refusalAdviceFor([{ code: 'manifest.bad_version' }, { code: 'archive.symlink' }]).actor).toBe('nobody');
  });

  it('a misnamed module (a likely typo) is the author’s, not a hidden tool', () => {
    expect(refusalAdviceFor([{ code: 'manifest.module_missing' }, { code: 'manifest.module_misnamed' }]).actor).toBe(
      'author',
    );
  });

  it('a policy refusal outweighs an author’s problem; the first problem decides otherwise', () => {
    expect(refusalAdviceFor([{ code: 'manifest.bad_version' }, { code: 'policy.blocked_publisher' }]).actor).toBe(
      'administrator',
    );
    expect(refusalAdviceFor([{ code: 'archive.truncated' }, { code: 'manifest.bad_version' }]).actor).toBe('user');
    expect(refusalAdviceFor([]).actor).toBe('author');
  });
});

describe('authorMessage', () => {
  it('names the file, each problem with its path and code, and the command', () => {
    const text = authorMessage(
      'quiet.apo',
      [
        { code: 'manifest.bad_version', message: 'package version `1.2` is not semver', path: 'package.version' },
        {
          code: 'manifest.module_missing',
          message: '`tools[0].module` names `x.py`, which is not in the archive',
          path: 'tools[0].module',
        },
      ],
      'apollia-desktop inspect quiet.apo',
    );
    expect(text).toBe(
      [
        'Apollia Desktop refused quiet.apo (checked without running any of it):',
        '- package version `1.2` is not semver (at package.version) [manifest.bad_version]',
        '- `tools[0].module` names `x.py`, which is not in the archive [manifest.module_missing]',
        '',
        'To see every problem: apollia-desktop inspect quiet.apo',
      ].join('\n'),
    );
  });
});

describe('inspectCommand and packCommand', () => {
  it('quotes a file name only when it needs it', () => {
    expect(inspectCommand('invoices-1.2.0.apo')).toBe('apollia-desktop inspect invoices-1.2.0.apo');
    expect(inspectCommand("it's here.apo")).toBe(`apollia-desktop inspect 'it'\\''s here.apo'`);
    expect(packCommand('my package')).toBe(`apollia-desktop pack 'my package'`);
  });

  it('runs the app’s own command line, never npx of a name (outside the repository npx fetches whoever owns it)', () => {
    const macBinary = `'/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop'`;
    expect(inspectCommand('invoices.apo', macBinary)).toBe(`${macBinary} inspect invoices.apo`);
    expect(packCommand('invoices', 'apollia-desktop')).toBe('apollia-desktop pack invoices');
    expect(inspectCommand('x.apo', null)).toBe('apollia-desktop inspect x.apo');
    for (const command of [inspectCommand('a.apo'), packCommand('a'), inspectCommand('a.apo', null)])
      expect(command).not.toMatch(/\bnpx\b/);
  });
});
