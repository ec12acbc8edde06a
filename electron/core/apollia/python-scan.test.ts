import { describe, expect, it } from 'vitest';
import { scanPythonModule } from './python-scan';

const names = (text: string) => scanPythonModule(text).map((f) => `${f.kind}:${f.name}`);

describe('scanPythonModule: import aliases cannot hide a tool', () => {
  it('reads `import apollia as ap` and `@ap.tool`', () => {
    expect(names('import apollia as ap\n\n@ap.tool\ndef hidden():\n    pass\n')).toEqual(['tool:hidden']);
  });

  it('reads `from apollia import tool as t, workflow as w`', () => {
    const text =
      'from apollia import tool as t, workflow as w\n\n@t(name="sneaky")\ndef a():\n    pass\n\n@w\nasync def b():\n    pass\n';
    expect(names(text)).toEqual(['tool:sneaky', 'workflow:b']);
  });

  it('reads a parenthesised import list', () => {
    expect(names('from apollia import (\n    tool as make_tool,\n)\n@make_tool\ndef c(): pass\n')).toEqual(['tool:c']);
  });

  it("does not take other modules' decorators for tools", () => {
    expect(names('import functools\n@functools.cache\ndef d(): pass\n@other.tool\ndef e(): pass\n')).toEqual([]);
  });
});

describe("scanPythonModule: linear in the module's size", () => {
  // Each of these took minutes when a line was trimmed per character or split by a backtracking
  // regex; they finish well inside the default test timeout when the scan is linear.
  it('reads a module whose one line is 2 MiB', () => {
    const text = `@tool\ndef f(): return ${'x + '.repeat(512 * 1024)}1\n`;
    expect(names(text)).toEqual(['tool:f']);
  });

  it('reads a 2 MiB line of spaces inside a decorator', () => {
    expect(names(`@tool${' '.repeat(2 * 1024 * 1024)}x\ndef f(): pass\n`)).toEqual([]);
  });

  it('reads 2 MiB of spaces in an import line ending in a bracket', () => {
    expect(
      names(
        `from apollia import${' '.repeat(2 * 1024 * 1024)})x\nimport${' '.repeat(2 * 1024 * 1024)}\r\n@tool\ndef g(): pass\n`,
      ),
    ).toEqual(['tool:g']);
  });

  it('still reads a decorator call spread over lines with spaces around the dot', () => {
    expect(names('import apollia as ap\n@ ap . tool (\n  name = "spread",\n)\ndef h(): pass\n')).toEqual([
      'tool:spread',
    ]);
  });
});
