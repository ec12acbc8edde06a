import { formatFireTime, type ScheduleView } from './schedule';

/** The words of a schedule and its next three fire times. */
export function ScheduleText({ view }: { view: ScheduleView }) {
  return (
    <div className="schedule">
      <p>{view.words}</p>
      {view.problem ? <p className="text-warning">This schedule cannot be read: {view.problem}</p> : null}
      {view.next.length > 0 ? (
        <>
          <p className="small muted">Next times:</p>
          <ul className="small next-times">
            {view.next.map((date) => (
              <li key={date.toISOString()}>
                <time dateTime={date.toISOString()}>{formatFireTime(date, view.timezone)}</time>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
