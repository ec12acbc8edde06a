import { describe, expect, it } from 'vitest';
import { previewApply } from '../../../shared/decisions/apply-preview';
import { setOwn } from '../../../shared/base/own-data';
import { inspectTemplate } from './index';
import { writeTemplate } from '../../../test/helpers/template-folders';

describe('agent.md: a parameter named `__proto__` or `constructor` is a parameter like any other', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('`%s` is listed and kept as an own key', async (name) => {
    const dir = writeTemplate((m) => {
      setOwn(m.parameters, name, { type: 'string', default: 'x-value', description: 'A value.' });
      m.display_name = `Digest ${'${parameters.'}${name}}`;
    });
    const result = await inspectTemplate(dir);
    expect(result.errors).toEqual([]);
    expect(result.summary?.parameters).toContain(name);
    const manifest = result.details?.manifest;
    expect(manifest && Object.hasOwn(manifest.parameters ?? {}, name)).toBe(true);
    expect(Object.getPrototypeOf(manifest?.parameters)).toBe(Object.prototype);
  });

  it('a placeholder naming `constructor` without such a parameter is refused, not filled from the prototype', async () => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        m.display_name = 'Digest ${parameters.constructor}';
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.path)).toContain('display_name');
  });

  it('previewApply reads only own keys of the request, and fills `${parameters.constructor}` with its value', async () => {
    const result = await inspectTemplate(
      writeTemplate((m) => {
        setOwn(m.parameters, 'constructor', { type: 'string', required: true, description: 'Needed.' });
        m.display_name = 'Digest ${parameters.constructor}';
      }),
    );
    const details = result.details;
    if (!details) throw new Error('no details');
    const machine = {
      savedMcpServers: ['slack'],
      savedSecrets: [],
      canKeepSecrets: true,
      now: new Date('2027-01-01T00:00:00Z'),
    };
    const missing = previewApply(details, { parameters: {}, grants: [] }, machine);
    expect(missing.blockers).toContainEqual({
      code: 'apply.parameter',
      path: 'parameters.constructor',
      message: '`constructor`: Required: Needed.',
    });
    const given = previewApply(
      details,
      { parameters: { constructor: 'Acme', channel: 'C0123ABCD' }, grants: [] },
      machine,
    );
    expect(given.parameters.constructor).toEqual({ value: 'Acme' });
  });
});
