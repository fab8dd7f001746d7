/**
 * Points the in-process reporters (daemon-link.ts finds the daemon through MUSTER_URL and
 * MUSTER_TOKEN_FILE) at a test's daemon; the function returned puts the environment back as it was.
 */
export function pointReportersAt(apiUrl: string, tokenFile: string): () => void {
  const saved = { MUSTER_URL: process.env.MUSTER_URL, MUSTER_TOKEN_FILE: process.env.MUSTER_TOKEN_FILE };
  process.env.MUSTER_URL = apiUrl;
  process.env.MUSTER_TOKEN_FILE = tokenFile;
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
