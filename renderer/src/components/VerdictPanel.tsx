import { AlertTriangle, ShieldAlert, ShieldCheck } from 'lucide-react';
import { VERDICT_LABELS, type Verdict } from '../../../shared/decisions/verdict';
import { PackageText } from './PackageText';

/** The verdict: a level, one headline of the worst it could do, and the facts behind it. */
export function VerdictPanel({ verdict }: { verdict: Verdict }) {
  const Icon = verdict.level === 'low' ? ShieldCheck : verdict.level === 'care' ? AlertTriangle : ShieldAlert;
  return (
    <section className={`verdict verdict-${verdict.level}`} aria-labelledby="verdict-headline">
      <p className="verdict-level">
        <Icon aria-hidden="true" size={18} /> {VERDICT_LABELS[verdict.level]}
      </p>
      <h3 id="verdict-headline" className="verdict-headline">
        {verdict.headline}
      </h3>
      <ul className="verdict-facts">
        {verdict.facts.map((fact, i) => (
          <li key={i}>
            <PackageText text={fact} />
          </li>
        ))}
      </ul>
    </section>
  );
}
