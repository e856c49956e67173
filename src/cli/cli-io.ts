/** Where a CLI command writes (the process' streams, or test buffers). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}
