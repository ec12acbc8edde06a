/**
 * Environment variable names that look like they hold a secret (`AWS_SECRET_ACCESS_KEY`,
 * `GITHUB_TOKEN`, `DB_PASSWORD`): handed to a program that is not pinned to one version, whoever
 * publishes its next version receives them, so the consent form warns beside the names. Pure.
 */

/** The words a secret's name is made of, as whole parts of a `_`/`-`-separated name. */
const SECRET_PARTS =
  /(^|[_-])(SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|KEY|CREDENTIALS?|AUTH|COOKIE|SESSION)([_-]|$)/i;

/** Whether an environment variable's name looks like it holds a secret. */
export function looksLikeSecretName(name: string): boolean {
  return SECRET_PARTS.test(name);
}

/** The names among `names` that look like they hold a secret, in their order. */
export function secretLookingNames(names: readonly string[]): string[] {
  return names.filter(looksLikeSecretName);
}
