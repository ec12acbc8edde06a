/**
 * Finding the tools and workflows a Python module defines by READING ITS TEXT (DESIGN.md "Reading
 * without running" and "Module scan"): the module is never imported, compiled or run.
 *
 * Recognised: `@tool`, `@tool(...)`, `@workflow`, `@workflow(...)`, bare or as `apollia.tool` /
 * `apollia.workflow`, or through an import alias (`import apollia as ap`, `from apollia import tool
 * as t`), the call possibly spread over several lines, followed (after any other
 * decorators, blank lines or comments) by `def` or `async def`. The name is the decorator's
 * `name="…"` argument when given, else the function's name. Strings and comments are skipped, so a
 * decorator quoted in a docstring is not mistaken for one.
 */

/** One decorated function found in a module. */
export interface DecoratedFunction {
  kind: 'tool' | 'workflow';
  /** The name the runtime will register: `name="…"` or the function name. */
  name: string;
  functionName: string;
  /** 1-based line of the decorator. */
  line: number;
}

interface LogicalLine {
  /** Code with every string literal replaced by `$S<index>` and comments removed. */
  code: string;
  line: number;
}

/**
 * What ends a run of ordinary characters in {@link logicalLines}: comments, quotes, brackets, a backslash, a newline.
 */
const SPECIAL = new Set([...'#"\'\\()[]{}\n'].map((ch) => ch.charCodeAt(0)));
const NOT_SPACE = /\S/;

/** Splits Python source into logical lines (brackets and backslashes join physical lines). */
function logicalLines(text: string): { lines: LogicalLine[]; strings: string[] } {
  const lines: LogicalLine[] = [];
  const strings: string[] = [];
  let code = '';
  // Whether `code` is still only whitespace: kept as a flag, since trimming the growing line at
  // every character made the scan quadratic in a line's length.
  let blank = true;
  let depth = 0;
  let line = 1;
  let start = 1;
  let i = 0;
  const flush = () => {
    if (!blank) lines.push({ code: code.trim(), line: start });
    code = '';
    blank = true;
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const triple = text.startsWith(ch.repeat(3), i);
      const quote = triple ? ch.repeat(3) : ch;
      let j = i + quote.length;
      let value = '';
      while (j < text.length && !text.startsWith(quote, j)) {
        if (!triple && text[j] === '\n') break;
        if (text[j] === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          if (text[j + 1] === '\n') line++;
          j += 2;
          continue;
        }
        if (text[j] === '\n') line++;
        value += text[j];
        j++;
      }
      strings.push(value);
      code += `$S${strings.length - 1}`;
      blank = false;
      i = Math.min(text.length, j + quote.length);
      continue;
    }
    if (ch === '\\' && text[i + 1] === '\n') {
      code += ' ';
      line++;
      i += 2;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    if (ch === '\n') {
      line++;
      if (depth === 0) {
        flush();
        start = line;
      } else {
        code += ' ';
      }
      i++;
      continue;
    }
    // A run of ordinary characters is copied in one slice, not one concatenation per character
    // (the scan showed in the CLI's profile). The line cannot change inside it.
    let end = i + 1;
    while (end < text.length && !SPECIAL.has(text.charCodeAt(end))) end++;
    const run = text.slice(i, end);
    if (blank && SPACE.test(ch)) start = line;
    if (blank && NOT_SPACE.test(run)) blank = false;
    code += run;
    i = end;
  }
  flush();
  return { lines, strings };
}

// Every pattern below is read on package text, so none may backtrack more than linearly: a line is
// split by hand where a regex would need two adjacent runs that can both take spaces
// (`\s*(\(.*\))?\s*$` on `@tool` and 200 000 spaces was quadratic).
const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;
const SPACE = /\s/;
const FROM_APOLLIA_IMPORT = /^from\s+apollia\s+import\s/;
const IMPORT = /^import\s/;

/** A decorator line `@name`, `@module.name`, each possibly called `(...)`; null when it is not one. */
function parseDecorator(code: string): { prefix?: string; called: string; args?: string } | null {
  let i = 1;
  const skipSpace = () => {
    while (i < code.length && SPACE.test(code[i] as string)) i++;
  };
  const identifier = (): string | null => {
    if (i >= code.length || !IDENTIFIER_START.test(code[i] as string)) return null;
    const from = i;
    while (i < code.length && IDENTIFIER_PART.test(code[i] as string)) i++;
    return code.slice(from, i);
  };
  skipSpace();
  const first = identifier();
  if (first === null) return null;
  skipSpace();
  let prefix: string | undefined;
  let called = first;
  if (code[i] === '.') {
    i++;
    skipSpace();
    const second = identifier();
    if (second === null) return null;
    prefix = first;
    called = second;
    skipSpace();
  }
  if (i === code.length) return { prefix, called };
  // `code` is trimmed, so a call's closing bracket is its last character.
  if (code[i] === '(' && code.length - 1 > i && code[code.length - 1] === ')')
    return { prefix, called, args: code.slice(i + 1, -1) };
  return null;
}

/** The part after `from apollia import` (brackets taken off), or null for any other line. */
function fromApolliaImports(code: string): string | null {
  const head = FROM_APOLLIA_IMPORT.exec(code);
  if (!head) return null;
  let names = code.slice(head[0].length).trim();
  if (names.startsWith('(')) names = names.slice(1);
  if (names.endsWith(')')) names = names.slice(0, -1);
  return names.includes(')') ? null : names;
}

/**
 * The names a module may decorate with: `apollia` (and `import apollia as ap`), and `tool` /
 * `workflow` (and `from apollia import tool as t`). An alias must not hide a tool from the scan.
 */
function decoratorNames(lines: LogicalLine[]): { modules: Set<string>; bare: Map<string, 'tool' | 'workflow'> } {
  const modules = new Set(['apollia']);
  const bare = new Map<string, 'tool' | 'workflow'>([
    ['tool', 'tool'],
    ['workflow', 'workflow'],
  ]);
  for (const { code } of lines) {
    const from = fromApolliaImports(code);
    if (from !== null) {
      for (const part of from.split(',')) {
        const alias = /^\s*(tool|workflow)\s+as\s+([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(part);
        if (alias) bare.set(alias[2] as string, alias[1] as 'tool' | 'workflow');
      }
      continue;
    }
    if (IMPORT.test(code)) {
      for (const part of code.slice('import'.length).split(',')) {
        const alias = /^\s*apollia\s+as\s+([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(part);
        if (alias) modules.add(alias[1] as string);
      }
    }
  }
  return { modules, bare };
}
const NAME_ARG = /(?:^|[,(\s])name\s*=\s*[rRuU]?\$S(\d+)/;
const DEF = /^(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)/;

/** Every function the module decorates as a tool or a workflow, in source order. */
export function scanPythonModule(text: string): DecoratedFunction[] {
  // No `@`, no decorator: nothing to find (most data-only modules), without walking the text.
  if (!text.includes('@')) return [];
  const { lines, strings } = logicalLines(text);
  const names = decoratorNames(lines);
  const found: DecoratedFunction[] = [];
  let pending: { kind: 'tool' | 'workflow'; name: string | null; line: number }[] = [];
  for (const { code, line } of lines) {
    if (code.startsWith('@')) {
      const match = parseDecorator(code);
      const prefix = match?.prefix;
      const called = match?.called as string;
      const kind = !match
        ? undefined
        : prefix === undefined
          ? names.bare.get(called)
          : names.modules.has(prefix) && (called === 'tool' || called === 'workflow')
            ? called
            : undefined;
      if (match && kind) {
        const arg = match.args === undefined ? null : NAME_ARG.exec(match.args);
        pending.push({ kind, name: arg ? (strings[Number(arg[1])] ?? null) : null, line });
      }
      continue;
    }
    const def = DEF.exec(code);
    if (def) {
      const functionName = def[1] as string;
      for (const decorator of pending)
        found.push({ kind: decorator.kind, name: decorator.name ?? functionName, functionName, line: decorator.line });
    }
    pending = [];
  }
  return found;
}
