/**
 * Text that came from a package. Always rendered as a React text node (never as HTML), so markup
 * in a manifest is shown, not run.
 */
export function PackageText({ text }: { text: string | undefined | null }) {
  return <>{text ?? ''}</>;
}
