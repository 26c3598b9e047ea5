// Stands in for Discord's Embedded App SDK in the browser test (served in its place): the
// SDK's own mock, from the vendored bundle itself, told what Discord would say inside an
// Activity: the instance from the page's address (as Discord opens it), and the codes the
// test made for the person ("test_code", one per authorization, comma-separated; none left:
// the person declines).
import { DiscordSDKMock } from "/static/vendor/the-real-sdk.mjs";

export class DiscordSDK extends DiscordSDKMock {
  constructor(clientId) {
    const query = new URLSearchParams(location.search);
    super(clientId, query.get("guild_id"), query.get("channel_id"), null);
    this.instanceId = query.get("instance_id");
    const codes = (query.get("test_code") || "").split(",").filter((c) => c);
    document.body.dataset.sdk = "mock of " + clientId;
    this._updateCommandMocks({
      authorize: async (args) => {
        document.body.dataset.authorize = JSON.stringify(args);
        document.body.dataset.authorized = String(Number(document.body.dataset.authorized || 0) + 1);
        if (!codes.length) throw new Error("the person declined");
        return { code: codes.shift() };
      },
    });
  }
}
