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
  const reader = new StrictJsonReader(text);
  try {
    const value = reader.readValue('', 0);
    reader.skipSpace();
    if (reader.pos < text.length)
      reader.fail('plugin.json_syntax', `${reader.describe(reader.pos)} after the end of the document`, reader.pos, '');
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ReadFailure) return { ok: false, error: error.detail };
    throw error;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/** One pass over `text`: a recursive descent, each kind of value read by its own method. */
class StrictJsonReader {
  pos = 0;

  constructor(private readonly text: string) {}

  /** The 1-based line and column of an offset. */
  where(at: number): { line: number; column: number } {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    return { line, column: at - lineStart + 1 };
  }

  fail(code: JsonReadError['code'], what: string, at: number, path: string): never {
    const { line, column } = this.where(at);
    const field = path === '' ? '' : ` (in \`${path}\`)`;
    throw new ReadFailure({
      code,
      message: `plugin manifest is not valid JSON: ${what} at line ${line}, column ${column}${field}`,
      line,
      column,
      path,
    });
  }

  /** What stands at an offset, in words (a control character by its code point). */
  describe(at: number): string {
    const { text } = this;
    if (at >= text.length) return 'unexpected end of input';
    const ch = text.charCodeAt(at);
    if (ch < 0x20 || ch === 0x7f)
      return `unexpected control character U+${ch.toString(16).toUpperCase().padStart(4, '0')}`;
    return `unexpected \`${String.fromCodePoint(text.codePointAt(at) ?? ch)}\``;
  }

  skipSpace(): void {
    while (this.pos < this.text.length) {
      const ch = this.text.charCodeAt(this.pos);
      if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) this.pos++;
      else break;
    }
  }

  readValue(path: string, depth: number): JsonValue {
    const { text } = this;
    if (depth > MAX_JSON_DEPTH)
      this.fail('plugin.too_deep', `nesting deeper than ${MAX_JSON_DEPTH} levels`, this.pos, path);
    this.skipSpace();
    const ch = text[this.pos];
    if (ch === '{') return this.readObject(path, depth);
    if (ch === '[') return this.readArray(path, depth);
    if (ch === '"') return this.readString(path);
    if (text.startsWith('true', this.pos)) {
      this.pos += 4;
      return true;
    }
    if (text.startsWith('false', this.pos)) {
      this.pos += 5;
      return false;
    }
    if (text.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(text);
    if (match && match[0] !== '' && match[0] !== '-') {
      this.pos += match[0].length;
      const n = Number(match[0]);
      if (!Number.isFinite(n)) this.fail('plugin.json_syntax', 'number out of range', this.pos - match[0].length, path);
      return n;
    }
    return this.fail('plugin.json_syntax', this.describe(this.pos), this.pos, path);
  }

  /** An object; a key given twice is refused, and `__proto__` is defined as an ordinary key. */
  private readObject(path: string, depth: number): { [key: string]: JsonValue } {
    const { text } = this;
    const open = this.pos;
    this.pos++;
    const obj: { [key: string]: JsonValue } = {};
    const seen = new Set<string>();
    this.skipSpace();
    if (text[this.pos] === '}') {
      this.pos++;
      return obj;
    }
    while (true) {
      this.skipSpace();
      if (text[this.pos] !== '"')
        this.fail(
          'plugin.json_syntax',
          `${this.describe(this.pos)} where a key in quotes was expected`,
          this.pos,
          path,
        );
      const keyAt = this.pos;
      const key = this.readString(path);
      const fieldPath = childPath(path, key);
      if (seen.has(key)) this.fail('plugin.duplicate_key', `duplicate key \`${fieldPath}\``, keyAt, path);
      seen.add(key);
      this.skipSpace();
      if (text[this.pos] !== ':')
        this.fail('plugin.json_syntax', `${this.describe(this.pos)} where \`:\` was expected`, this.pos, fieldPath);
      this.pos++;
      const value = this.readValue(fieldPath, depth + 1);
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      if (text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (text[this.pos] === '}') {
        this.pos++;
        return obj;
      }
      if (this.pos >= text.length)
        this.fail('plugin.json_syntax', `object opened at line ${this.where(open).line} is not closed`, this.pos, path);
      this.fail('plugin.json_syntax', `${this.describe(this.pos)} where \`,\` or \`}\` was expected`, this.pos, path);
    }
  }

  private readArray(path: string, depth: number): JsonValue[] {
    const { text } = this;
    const open = this.pos;
    this.pos++;
    const arr: JsonValue[] = [];
    this.skipSpace();
    if (text[this.pos] === ']') {
      this.pos++;
      return arr;
    }
    while (true) {
      arr.push(this.readValue(childPath(path, arr.length), depth + 1));
      this.skipSpace();
      if (text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (text[this.pos] === ']') {
        this.pos++;
        return arr;
      }
      if (this.pos >= text.length)
        this.fail('plugin.json_syntax', `array opened at line ${this.where(open).line} is not closed`, this.pos, path);
      this.fail('plugin.json_syntax', `${this.describe(this.pos)} where \`,\` or \`]\` was expected`, this.pos, path);
    }
  }

  /** A string: the caller has checked the opening quote. */
  private readString(path: string): string {
    const { text } = this;
    this.pos++;
    let out = '';
    let runStart = this.pos;
    while (true) {
      if (this.pos >= text.length) this.fail('plugin.json_syntax', 'unterminated string', this.pos, path);
      const ch = text.charCodeAt(this.pos);
      if (ch === 0x22) {
        out += text.slice(runStart, this.pos);
        this.pos++;
        return out;
      }
      if (ch < 0x20) this.fail('plugin.json_syntax', `${this.describe(this.pos)} in a string`, this.pos, path);
      if (ch !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(runStart, this.pos) + this.readEscape(path);
      this.pos += 2;
      runStart = this.pos;
    }
  }

  /** The character an escape at `pos` stands for; a `\u` escape moves `pos` past its four digits (less two). */
  private readEscape(path: string): string {
    const { text } = this;
    const esc = text[this.pos + 1];
    switch (esc) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hex = text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('plugin.json_syntax', 'bad `\\u` escape', this.pos, path);
        this.pos += 4;
        return String.fromCharCode(parseInt(hex, 16));
      }
      default:
        return this.fail('plugin.json_syntax', 'bad escape in a string', this.pos, path);
    }
  }
}
