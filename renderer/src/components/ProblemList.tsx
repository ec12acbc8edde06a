import type { Problem } from '../../../shared/manifests/inspection';
import { CodeText } from './CodeText';
import { PackageText } from './PackageText';

/** A problem's path, when its message does not already name it (the spec's messages often do). */
export function pathAside(message: string, path: string | undefined): string | null {
  return path && !message.includes(path) ? path : null;
}

/**
 * Problems or warnings as a list: each message in words (backticked names as code), then where, if the message does not
 * say.
 */
export function ProblemList({ problems }: { problems: readonly Pick<Problem, 'message' | 'path'>[] }) {
  return (
    <ul>
      {problems.map((problem, i) => {
        const where = pathAside(problem.message, problem.path);
        return (
          <li key={i}>
            <CodeText text={problem.message} />
            {where ? (
              <>
                {' '}
                (
                <code>
                  <PackageText text={where} />
                </code>
                )
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
