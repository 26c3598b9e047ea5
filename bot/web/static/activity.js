// The page inside Discord, as an Activity: it has no link, so it asks Discord who the person
// is. Discord's Embedded App SDK (vendor/, loaded only here) runs its "authorize" step; the
// one-time code goes to our server, which checks it and the Activity's instance with
// Discord and answers with the link the person would have had from the Board button.
// Nothing here is trusted by the server: it believes only what Discord tells it.
const SDK = "/static/vendor/discord-embedded-app-sdk.mjs";
const READY_MS = 15000;

async function json(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || String(response.status));
  return data;
}

// One sign-in: resolves to the page's token; throws an Error whose message is for the
// person (the server's words, in their language)
export async function signIn(onWords) {
  const app = await json(await fetch("/api/activity", { cache: "no-store" }));
  const words = app.words || {};
  if (onWords) onWords(words);
  const { DiscordSDK } = await import(SDK);
  const sdk = new DiscordSDK(app.client_id);
  // outside Discord's frame the SDK waits for a handshake that never comes
  await Promise.race([sdk.ready(), new Promise((_, no) => setTimeout(
    () => no(new Error(words.outside || "Discord?")), READY_MS))]);
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: app.client_id, response_type: "code", state: "", prompt: "none",
      scope: ["identify"],
    }));
  } catch (e) {
    throw new Error(words.declined || String(e.message || e));
  }
  const answer = await json(await fetch("/api/activity", {
    method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: code, instance: sdk.instanceId }),
  }));
  return answer.token;
}
