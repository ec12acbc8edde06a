/**
 * The one answer to "who is this from, and how sure is the app?" for the publisher line of a
 * consent form (the templates that ship with the app say so, not "unverified";
 * signed packages add signature states). Every screen that shows a publisher asks this function, so a
 * new state (a verified signature, say) changes every line at once.
 */

import type { SignatureState } from './trust';

/**
 * How the app knows who a package or template is from: shipped with the app, or a signature check's state
 * (`shared/trust.ts`).
 */
export type PublisherState = 'builtin' | SignatureState['state'];

/** What the publisher line shows for a state. */
export interface PublisherLine {
  state: PublisherState;
  /** The badge's words. */
  badge: string;
  /** The badge's tone: a class suffix of `badge-…`. */
  tone: 'allow' | 'neutral' | 'warning-soft';
  /** One sentence saying what the state means. */
  explanation: string;
}

const LINES: Record<PublisherState, Omit<PublisherLine, 'state'>> = {
  builtin: {
    badge: 'Comes with Apollia Desktop',
    tone: 'allow',
    explanation: 'It ships inside this app, from the people who make Apollia Desktop.',
  },
  verified: { badge: 'Verified publisher', tone: 'allow', explanation: 'Signed with a key you trust.' },
  unknown_key: {
    badge: 'Signed with a key you do not know',
    tone: 'warning-soft',
    explanation: 'It is signed, but not with a key you trust: the signature does not tell you who made it.',
  },
  unsigned: {
    badge: 'Unverified: not signed',
    tone: 'warning-soft',
    explanation: 'Nothing proves who made it: the name is what it says about itself.',
  },
};

/**
 * The publisher line for a source: a template shipped with the app is `builtin`; otherwise the
 * signature check's state (`unsigned` until one says otherwise).
 */
export function publisherLine(source: { builtin: boolean; signature?: SignatureState['state'] }): PublisherLine {
  const state: PublisherState = source.builtin ? 'builtin' : (source.signature ?? 'unsigned');
  return { state, ...LINES[state] };
}
