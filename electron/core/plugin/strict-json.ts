/**
 * A strict JSON reader for package data: RFC 8259 grammar, with what `JSON.parse` does not give.
 *
 * - A syntax error names its line and column (V8's `JSON.parse` messages often name neither).
 * - A duplicate key is refused: with `JSON.parse` the last one silently wins, so a viewer and a
 *   runtime reading the same file could disagree about what it says.
 * - `__proto__` is an ordinary key (defined, never assigned), and nesting is bounded.
 * Nothing is evaluated: this only reads characters.
 */

/** A JSON value as read. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Why the text is not acceptable JSON, with a 1-based position. */
export interface JsonReadError {
  code: 'plugin.json_syntax' | 'plugin.duplicate_key' | 'plugin.too_deep';
  message: string;
  line: number;
  column: number;
  /** The field path where it happened (`tools[1].name`), or `` at the top. */
  path: string;
}

/** The most nesting a manifest may use; a JSON Schema rarely goes past 20. */
export const MAX_JSON_DEPTH = 128;

class ReadFailure extends Error {
  constructor(readonly detail: JsonReadError) {
    super(detail.message);
  }
}

/** Joins a path and a key the way errors name fields (`tools[2].capability`). */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
  return parent === '' ? plain : `${parent}.${plain}`;
}

/**
 * Reads `text` as one JSON value.
 *
 * Why not `JSON.parse`: see the module comment. Returns the value, or the first problem.
 */
export function readStrictJson(text: string): { ok: true; value: JsonValue } | { ok: false; error: JsonReadError } {
  let pos = 0;

  const where = (at: number): { line: number; column: number } => {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < text.length; i++) {
      if (text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: at - lineStart + 1 };
  };

  const fail = (code: JsonReadError['code'], what: string, at: number, path: string): never => {
    const { line, column } = where(at);
    const field = path === '' ? '' : ` (in \`${path}\`)`;
    throw new ReadFailure({
      code,
      message: `plugin manifest is not valid JSON: ${what} at line ${line}, column ${column}${field}`,
      line,
      column,
      path,
    });
  };

  const describe = (at: number): string => {
    if (at >= text.length) return 'unexpected end of input';
    const ch = text.charCodeAt(at);
    if (ch < 0x20 || ch === 0x7f)
      return `unexpected control character U+${ch.toString(16).toUpperCase().padStart(4, '0')}`;
    return `unexpected \`${String.fromCodePoint(text.codePointAt(at) ?? ch)}\``;
  };

  const skipSpace = (): void => {
    while (pos < text.length) {
      const ch = text.charCodeAt(pos);
      if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) pos++;
      else break;
    }
  };

  const readString = (path: string): string => {
    // The caller has checked the opening quote.
    pos++;
    let out = '';
    let runStart = pos;
    while (true) {
      if (pos >= text.length) fail('plugin.json_syntax', 'unterminated string', pos, path);
      const ch = text.charCodeAt(pos);
      if (ch === 0x22) {
        out += text.slice(runStart, pos);
        pos++;
        return out;
      }
      if (ch < 0x20) fail('plugin.json_syntax', `${describe(pos)} in a string`, pos, path);
      if (ch !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(runStart, pos);
      const esc = text[pos + 1];
      switch (esc) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = text.slice(pos + 2, pos + 6);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('plugin.json_syntax', 'bad `\\u` escape', pos, path);
          out += String.fromCharCode(parseInt(hex, 16));
          pos += 4;
          break;
        }
        default:
          fail('plugin.json_syntax', 'bad escape in a string', pos, path);
      }
      pos += 2;
      runStart = pos;
    }
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  const readValue = (path: string, depth: number): JsonValue => {
    if (depth > MAX_JSON_DEPTH) fail('plugin.too_deep', `nesting deeper than ${MAX_JSON_DEPTH} levels`, pos, path);
    skipSpace();
    const ch = text[pos];
    if (ch === '{') {
      const open = pos;
      pos++;
      const obj: { [key: string]: JsonValue } = {};
      const seen = new Set<string>();
      skipSpace();
      if (text[pos] === '}') {
        pos++;
        return obj;
      }
      while (true) {
        skipSpace();
        if (text[pos] !== '"')
          fail('plugin.json_syntax', `${describe(pos)} where a key in quotes was expected`, pos, path);
        const keyAt = pos;
        const key = readString(path);
        const fieldPath = childPath(path, key);
        if (seen.has(key)) fail('plugin.duplicate_key', `duplicate key \`${fieldPath}\``, keyAt, path);
        seen.add(key);
        skipSpace();
        if (text[pos] !== ':') fail('plugin.json_syntax', `${describe(pos)} where \`:\` was expected`, pos, fieldPath);
        pos++;
        const value = readValue(fieldPath, depth + 1);
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return obj;
        }
        if (pos >= text.length)
          fail('plugin.json_syntax', `object opened at line ${where(open).line} is not closed`, pos, path);
        fail('plugin.json_syntax', `${describe(pos)} where \`,\` or \`}\` was expected`, pos, path);
      }
    }
    if (ch === '[') {
      const open = pos;
      pos++;
      const arr: JsonValue[] = [];
      skipSpace();
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      while (true) {
        arr.push(readValue(childPath(path, arr.length), depth + 1));
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return arr;
        }
        if (pos >= text.length)
          fail('plugin.json_syntax', `array opened at line ${where(open).line} is not closed`, pos, path);
        fail('plugin.json_syntax', `${describe(pos)} where \`,\` or \`]\` was expected`, pos, path);
      }
    }
    if (ch === '"') return readString(path);
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match && match[0] !== '' && match[0] !== '-') {
      pos += match[0].length;
      const n = Number(match[0]);
      if (!Number.isFinite(n)) fail('plugin.json_syntax', 'number out of range', pos - match[0].length, path);
      return n;
    }
    return fail('plugin.json_syntax', describe(pos), pos, path);
  };

  try {
    const value = readValue('', 0);
    skipSpace();
    if (pos < text.length) fail('plugin.json_syntax', `${describe(pos)} after the end of the document`, pos, '');
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ReadFailure) return { ok: false, error: error.detail };
    throw error;
  }
}
