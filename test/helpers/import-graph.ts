/**
 * The repository's import graph, read from the source text (type imports and re-exports included: a type that
 * reaches sideways for its home is as much a tangle as a value), for the tests that hold the floors and forbid circles.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT, sourceFiles } from './source-files';

/** Every relative module a file imports or re-exports (including `import()` and `vi.mock`), repository-relative. */
export function importsOf(file: string, text = readFileSync(join(REPO_ROOT, file), 'utf8')): string[] {
  const targets = [...text.matchAll(/(?:\bfrom|\bimport|\bmock)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].flatMap((match) => {
    const base = resolve(REPO_ROOT, dirname(file), match[1] as string);
    const found = ['', '.ts', '.tsx', '/index.ts']
      .map((ext) => base + ext)
      .find((path) => /\.tsx?$/.test(path) && existsSync(path));
    return found === undefined ? [] : [relative(REPO_ROOT, found)];
  });
  return [...new Set(targets)];
}

/** The import graph of the given folders' source files (tests, `.d.ts` and generated code left out). */
export function importGraph(folders: readonly string[]): Map<string, string[]> {
  const files = folders.flatMap((folder) => sourceFiles(folder));
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file).filter((to) => known.has(to))]));
}

/**
 * The circles of a graph: its strongly connected components of more than one file, or a file that imports itself
 * (Tarjan's algorithm, iterative so a deep chain cannot overflow the stack). Each circle is sorted by name.
 */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; edge: number }[] = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to))
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.includes(frame.node)) found.push(component.sort());
    }
  }
  return found;
}
