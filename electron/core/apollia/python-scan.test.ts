import { describe, expect, it } from 'vitest';
import { scanPythonModule } from './python-scan';

const names = (text: string) => scanPythonModule(text).map((f) => `${f.kind}:${f.name}`);

describe('scanPythonModule: import aliases cannot hide a tool', () => {
  it('reads `import apollia as ap` and `@ap.tool`', () => {
    expect(names('import apollia as ap\n\n@ap.tool\ndef hidden():\n    pass\n')).toEqual(['tool:hidden']);
  });

  it('reads `from apollia import tool as t, workflow as w`', () => {
    const text = 'from apollia import tool as t, workflow as w\n\n@t(name="sneaky")\ndef a():\n    pass\n\n@w\nasync def b():\n    pass\n';
    expect(names(text)).toEqual(['tool:sneaky', 'workflow:b']);
  });

  it('reads a parenthesised import list', () => {
    expect(names('from apollia import (\n    tool as make_tool,\n)\n@make_tool\ndef c(): pass\n')).toEqual(['tool:c']);
  });

  it("does not take other modules' decorators for tools", () => {
    expect(names('import functools\n@functools.cache\ndef d(): pass\n@other.tool\ndef e(): pass\n')).toEqual([]);
  });
});
