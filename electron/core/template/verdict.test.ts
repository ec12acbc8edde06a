/** The verdict of each template that ships with the app ("the headline text for several packages"). */
import { describe, expect, it } from 'vitest';
import { templateVerdict } from '../../../shared/decisions/template-verdict';
import { readTemplateFolder } from './index';

const TEMPLATES = new URL('../../../resources/templates/', import.meta.url).pathname;

describe('the built-in templates say the worst they could do first', () => {
  it.each([
    ['market-monitor', 'high', 'Can send or post in your name, on its own'],
    ['inbound-lead', 'high', 'Can send or post in your name, on its own'],
    ['code-review', 'high', 'Can read your accounts and send what it reads out'],
    ['release-notes', 'care', 'Can change things in your accounts'],
    ['kyb', 'care', 'Can reach the internet'],
  ])('%s: %s, “%s”', async (name, level, headline) => {
    const read = await readTemplateFolder(`${TEMPLATES}${name}`);
    const manifest = read.inspection.details?.manifest;
    if (!manifest) throw new Error(`${name} was refused`);
    const verdict = templateVerdict(manifest);
    expect([verdict.level, verdict.headline]).toEqual([level, headline]);
    expect(verdict.facts.length).toBeGreaterThan(0);
    expect(verdict.facts.length).toBeLessThanOrEqual(3);
  });
});
