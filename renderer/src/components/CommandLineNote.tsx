/**
 * Says what the command shown above it is: Apollia Desktop's own command line, installed with the
 * app, never a program fetched from a registry. Where this installation has no terminal command
 * (Windows, an AppImage, a Mac app run from where it was downloaded: `AppInfo.cliProgram` is null),
 * it says so and where to get one.
 */
export function CommandLineNote({ program }: { program: string | null }) {
  if (program === null) {
    return (
      <p className="small muted">
        This is Apollia Desktop’s own command line. This installation gives no command to type here (on Windows a
        console does not wait for the app; on a Mac, move the app into Applications first): install the Apollia Desktop
        command line, as its README says, on the computer where the command runs.
      </p>
    );
  }
  return (
    <p className="small muted">
      This is Apollia Desktop’s own command line, installed with the app: run it in a terminal on a computer where
      Apollia Desktop is installed. Nothing is downloaded.
    </p>
  );
}
