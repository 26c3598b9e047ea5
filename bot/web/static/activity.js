// The page inside Discord, as an Activity: it has no link, so it asks Discord who the person
// is. Discord's Embedded App SDK (vendor/, loaded only here) runs its "authorize" step; the
// one-time code goes to our server, which checks it and the Activity's instance with
// Discord and answers with the link the person would have had from the Board button.
// Nothing here is trusted by the server: it believes only what Discord tells it.
const SDK = "/static/vendor/discord-embedded-app-sdk.mjs";
const READY_MS = 15000;
// Discord busy, limits reached (503, 429) or no network: tried again after these pauses
const PAUSES_MS = [2000, 5000, 10000];

class Refused extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function json(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Refused(data.error || String(response.status), response.status);
  return data;
}

function pause(ms) { return new Promise((ok) => setTimeout(ok, ms)); }

// Signs in once Discord's frame answered: resolves to { token, renew }, renew() giving a
// fresh token (an expired one, a page open for days) through the same SDK. Throws an
// Error whose message is for the person (the server's words, in their language).
export async function start(onWords) {
  const app = await json(await fetch("/api/activity", { cache: "no-store" }));
  const words = app.words || {};
  if (onWords) onWords(words);
  let sdk;
  try {
    const { DiscordSDK } = await import(SDK);
    sdk = new DiscordSDK(app.client_id);
    // outside Discord's frame the SDK waits for a handshake that never comes
    await Promise.race([sdk.ready(), pause(READY_MS).then(() => { throw new Error(); })]);
  } catch (e) {
    throw new Error(words.outside || "Discord?");
  }
  // a code is good once, so each try asks Discord for a new one (without asking the
  // person again: prompt "none")
  async function signIn() {
    for (let i = 0; ; i++) {
      let code;
      try {
        ({ code } = await sdk.commands.authorize({
          client_id: app.client_id, response_type: "code", state: "", prompt: "none",
          scope: ["identify"],
        }));
      } catch (e) {
        throw new Error(words.declined || String(e.message || e));
      }
      try {
        const answer = await json(await fetch("/api/activity", {
          method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ code: code, instance: sdk.instanceId }),
        }));
        return answer.token;
      } catch (e) {
        const passing = !(e instanceof Refused) || [429, 503].includes(e.status);
        if (!passing) throw e;
        if (i >= PAUSES_MS.length) throw e instanceof Refused ? e : new Error(words.offline || "…");
        await pause(PAUSES_MS[i]);
      }
    }
  }
  return { token: await signIn(), renew: signIn };
}
