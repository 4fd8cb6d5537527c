// How a command-line tool ends: its exit code, or 1 with the error's message (never a stack) on stderr.
export function runMain(main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
