import { spawn } from "node:child_process";

/**
 * Runs a child server script (test/*.child.ts) to its death by SIGKILL, which it deals itself
 * half-way through a payment; any other end fails with the child's stderr.
 */
export function runUntilKilled(script: string, env: NodeJS.ProcessEnv): Promise<NodeJS.Signals> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child ended with ${code ?? signal}: ${stderr}`));
      else resolve(signal);
    });
  });
}
