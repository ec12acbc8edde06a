import { describe, expect, it } from 'vitest';
import { accessRow } from '../decisions/access-rows';
import { ACTIVITY_KIND_WORDS, ACTIVITY_KINDS } from '../activity/activity-kinds';
import { FAMILY_SEVERITY, MCP_TRANSPORTS, type ApolliaManifest } from '../manifests/apollia-manifest';
import { APOLLIA_NATIVE_TOOLS, TEMPLATE_TOOLS } from '../manifests/catalogues';
import { riskSummary } from '../decisions/risk-summary';
import { packageVerdict } from '../decisions/verdict';
import {
  toolShortName,
  accessStateWords,
  deliveryWords,
  FAMILY_ABILITY,
  FAMILY_LABELS,
  FAMILY_WORDS,
  fireCauseWords,
  harnessWords,
  PLUGIN_TRANSPORT_WORDS,
  toolWords,
  TRANSPORT_WORDS,
  transportChoiceWords,
  TRIGGER_STATE_WORDS,
  TRIGGER_TYPE_WORDS,
} from './words';

/** Raw forms a person must never read as the words themselves. */
const RAW = /streamable-http|\bsse\b|\bstdio\b|HMAC|\b[1-5]\d\d\b|[a-z]+_[a-z_]+|`|\bpid\b|pkg:|mcp:/;

describe('one vocabulary', () => {
  it('every action family has a sentence, an ability and a badge label, none of them its code', () => {
    for (const family of FAMILY_SEVERITY) {
      for (const words of [FAMILY_WORDS[family], FAMILY_ABILITY[family], FAMILY_LABELS[family]]) {
        expect(words, family).toMatch(/^\S.*\S$/);
        expect(words, family).not.toMatch(RAW);
      }
    }
  });

  it('every MCP transport has plain words, and a network one never says the raw transport', () => {
    for (const transport of MCP_TRANSPORTS) {
      expect(TRANSPORT_WORDS[transport], transport).not.toMatch(RAW);
      expect(transportChoiceWords(transport), transport).not.toMatch(RAW);
    }
    expect(TRANSPORT_WORDS['streamable-http']).toBe('over the network (HTTP)');
    expect(transportChoiceWords('stdio')).toBe('A program on this computer');
    for (const words of Object.values(PLUGIN_TRANSPORT_WORDS)) expect(words).not.toMatch(RAW);
  });

  it('every trigger type, live state and fire cause has words', () => {
    for (const [type, words] of Object.entries(TRIGGER_TYPE_WORDS)) {
      expect(words, type).not.toMatch(RAW);
      expect(words, type).not.toBe(type);
    }
    for (const words of Object.values(TRIGGER_STATE_WORDS)) expect(words).not.toMatch(RAW);
    for (const cause of ['schedule', 'missed', 'at', 'file_watch', 'webhook'])
      expect(fireCauseWords(cause), cause).not.toMatch(RAW);
  });

  it('every activity kind has words, not its code', () => {
    for (const kind of ACTIVITY_KINDS) expect(ACTIVITY_KIND_WORDS[kind], kind).not.toMatch(RAW);
    expect(ACTIVITY_KIND_WORDS.key_change_accepted).toBe('Accepted a new signing key');
  });

  it('a webhook answer is said in words, never as its status number', () => {
    for (const status of [200, 202, 401, 404, 408, 409, 413, 429, 503, 500])
      expect(deliveryWords(status), String(status)).not.toMatch(RAW);
    expect(deliveryWords(401)).toBe('Refused: not signed right');
  });

  it("a template's agent programs are said as a preference, not as a list joined by 'then'", () => {
    expect(harnessWords(['pi', 'claude-agent'])).toBe(
      'Runs on the agent program pi, or claude-agent where pi is not available',
    );
    expect(harnessWords(['pi'])).toBe('Runs on the agent program pi');
    expect(harnessWords([])).not.toMatch(/then/);
  });

  it('a tool leads with its words; its id is only the secondary part', () => {
    expect(toolWords('pkg:quiet-notes/tidy')).toEqual({
      words: 'The tool “tidy” of the package quiet-notes',
      id: 'pkg:quiet-notes/tidy',
      outward: false,
    });
    expect(toolWords('mcp:ledger/lookup').words).not.toMatch(/mcp:/);
    expect(toolWords('web_search')).toMatchObject({ words: 'Search the web', outward: true });
    expect(toolWords('file_read', () => 'Its own words').words).toBe('Its own words');
  });

  it('shell is said the same way in both catalogues: it runs commands on this computer', () => {
    const apo = APOLLIA_NATIVE_TOOLS.find((tool) => tool.name === 'shell');
    const template = TEMPLATE_TOOLS.find((tool) => tool.name === 'shell');
    expect(template?.description).toBe(apo?.description);
    expect(apo?.description).toBe('Run shell commands on this computer');
    // A tool in both catalogues has one description and one family.
    for (const tool of TEMPLATE_TOOLS) {
      const same = APOLLIA_NATIVE_TOOLS.find((other) => other.name === tool.name);
      if (same) expect(same, tool.name).toEqual(tool);
    }
  });
});

describe('the verdict and the rows read one classification', () => {
  // A package with no code and no trigger, whose agent only searches the web.
  const notrig = {
    package: { name: 'notrig', version: '1.0.0', publisher: 'Someone', description: 'Looks things up.' },
    agents: [
      {
        id: 'finder',
        name: 'Finder',
        mission: 'Look things up.',
        defaults: { access: ['web_search'] },
      },
    ],
  } as unknown as ApolliaManifest;

  it('a web search that the verdict counts as sending outside is marked so on its row and in the summary', () => {
    const verdict = packageVerdict(notrig, APOLLIA_NATIVE_TOOLS);
    expect(verdict.headline).toBe('Can send things outside this computer');
    const row = accessRow('web_search', notrig);
    expect(row).toMatchObject({ family: 'read', outward: true });
    const lines = riskSummary(notrig, APOLLIA_NATIVE_TOOLS);
    const outward = lines.find((line) => line.family === 'send_external');
    expect(outward?.items).toEqual(['web_search']);
    expect(lines.find((line) => line.family === 'read')).toBeUndefined();
    expect(lines.some((line) => line.level === 'cannot' && line.family === 'send_external')).toBe(false);
  });
});

describe('accessStateWords: the dashboard badge says the state', () => {
  it('a tool not granted says so whatever it would do; a granted one says how it runs', () => {
    expect(accessStateWords(false, 'ask')).toBe('Not granted');
    expect(accessStateWords(false, 'allow')).toBe('Not granted');
    expect(accessStateWords(true, 'ask')).toBe('Granted · asks you first');
    expect(accessStateWords(true, 'allow')).toBe('Granted · runs without asking');
    expect(accessStateWords(true, 'deny')).toBe('Granted · withheld');
  });
});

describe('toolShortName: a tool in a list of words, never its raw id', () => {
  it('names each kind of entry without its prefix', () => {
    expect(toolShortName('file_read')).toBe('file_read');
    expect(toolShortName('pkg:invoices/extract_totals')).toBe('its tool “extract_totals”');
    expect(toolShortName('workflow:invoices/remind')).toBe('its workflow “remind”');
    expect(toolShortName('mcp:ledger/lookup')).toBe('“lookup” of the program ledger');
    expect(toolShortName('agent:helper')).toBe('the agent helper');
  });
});
