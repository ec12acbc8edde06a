/**
 * The Api's policy page (DESIGN.md "Managed policy"): the policy in force, who sets it and from
 * where (a trial policy said so), each rule in words with the sources it came from, and what it changes on this
 * computer now, from the same evaluation every door makes. Once with TypeBox; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, oneOf, orNull } from '../base/schema-kit';
import { PolicyViewSchema } from '../policy/policy-in-force-schema';

const str = Type.String();

/**
 * `policyPage`. `heading`: who sets the policy, in one line; `trial`: only the person's `APOLLIA_POLICY_FILE` was read
 * (it only adds restrictions, and is not the organization's); `sources`: each source in words; `rules`: each rule in
 * force (`key` as the policy file names it) in words, with the sources it came from; `effects`: what it changes here
 * now (a package withheld whole, a tool withheld or made to ask, a trigger paused), each with why and its `policy.*`
 * code when a refusal names one.
 */
export const PolicyPageSchema = closed({
  policy: PolicyViewSchema,
  heading: str,
  trial: Type.Boolean(),
  sources: Type.Array(str),
  rules: Type.Array(closed({ key: str, words: str, from: Type.Array(str) })),
  effects: Type.Array(
    closed({
      kind: oneOf(['package', 'tool', 'trigger']),
      subject: str,
      what: str,
      why: str,
      code: orNull('string'),
    }),
  ),
});
export type PolicyPage = Static<typeof PolicyPageSchema>;
