"""A stand-in for Discord on 127.0.0.1, enough for the real, unmodified discord.py client.

One aiohttp server (port 0) serves the REST API under ``/api/v10`` and the websocket gateway on
``/`` (and ``/gateway``). It records every request (method, path, JSON payload, attached files'
bytes) and lets a test dispatch gateway events (INTERACTION_CREATE for commands).

Facts about discord.py 2.x the stand-in respects: JSON responses carry exactly
``Content-Type: application/json``; gateway frames go out as plain JSON text whatever
compression the client asked for; an interaction carries ``attachment_size_limit``; callbacks
answer JSON that holds the interaction's id.

It refuses what Discord refuses (tests/discord_limits.py): a message, autocomplete answer, modal
or command schema past Discord's limits gets Discord's own answer, HTTP 400 with code 50035 and the
failing field's path, and is kept in :attr:`DiscordStandIn.refused`; the e2e fixture fails any test
that leaves a refusal there without expecting it.

Shards (issue 15): ``GET /gateway/bot`` recommends :attr:`DiscordStandIn.shard_count` shards; each
gateway connection's IDENTIFY names its shard ``[id, count]``; READY and GUILD_CREATE carry only the
guilds of that shard, and each guild's events go only to the connection of the shard Discord would
use, ``(guild_id >> 22) % shard_count`` (events outside a guild go to shard 0).

The test process points the client here with :func:`point_discord_py_at` (a bot in a child process:
tests/e2e/shard_process.py); nothing in the shipped bot knows about the stand-in.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from tests import discord_limits as limits

APP_ID = 900000000000000001
BOT_ID = APP_ID
GUILD_ID = 900000000000000100
CHANNEL_ID = 900000000000000101
GUILD_2_ID = GUILD_ID + (1 << 22)
"""A second server, on the other shard of two (``(id >> 22) % 2`` differs from :data:`GUILD_ID`'s)."""
CHANNEL_2_ID = GUILD_2_ID + 1
USER_ID = 900000000000000200
SESSION = "standin-session"
PLAYER_PERMISSIONS = "104324673"
"""A member's usual permissions (no Manage Server)."""
MANAGER_PERMISSIONS = str(104324673 | 1 << 5)
"""The same with Manage Server."""


@dataclass
class Recorded:
    """One request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: dict[str, bytes] = field(default_factory=dict)
    """Attached files by filename."""
    at: float = 0.0
    """When the stand-in received it, by its clock (the event loop's)."""


@dataclass
class Fault:
    """A canned failure for the next `times` requests matching `method` and `path` (a regex)."""

    method: str
    path: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json", **(headers or {})}
    )


def _user(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


LISTEN_BACKLOG = 4096
"""Connections the stand-in's listening socket queues before accepting them (the kernel caps it at
``net.core.somaxconn``)."""


class DiscordStandIn:
    """The stand-in server. ``await start()``, point the client at :attr:`rest_base` and
    :attr:`gateway_url`, then drive it with :meth:`dispatch` and read :attr:`requests`."""

    def __init__(self, *, guilds: tuple[int, ...] = (GUILD_ID,), shard_count: int = 1) -> None:
        self.guilds = guilds
        """The servers the bot is in (each with one text channel: :meth:`channel_of`)."""
        self.shard_count = shard_count
        """The shards ``GET /gateway/bot`` recommends."""
        self.shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        """Each identified gateway connection's shard: (id, count)."""
        self.shard_identified = asyncio.Condition()
        self.requests: list[Recorded] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._ids = itertools.count(910000000000000000)
        self.identified = asyncio.Event()
        self.resumed = asyncio.Event()
        self.close_identify_with: int | None = None
        """A gateway close code to answer every IDENTIFY with (4004: the token is refused), or None."""
        self._new_request = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._faults: list[Fault] = []
        self.refused: list[tuple[Recorded, list[limits.Refusal]]] = []
        """Requests answered 400 because Discord would refuse them, with the reasons."""
        self.upload_limit = limits.UPLOAD_LIMIT
        """Bytes of files one message may carry (sent as each interaction's attachment_size_limit)."""
        self.port = 0
        self.uploads: dict[str, bytes] = {}
        """Files members attached to slash commands (an attachment option), by attachment id: served
        at the attachment's url as Discord's CDN serves them."""
        self.downloads: list[str] = []
        """Attachment ids the bot fetched, in order."""
        self.dispatched_at: dict[str, float] = {}
        """When each interaction (by id) was sent down the gateway, by the stand-in's clock."""

    def fail(self, method: str, path: str, status: int, body: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None, times: int = 1) -> None:
        """Answer the next `times` requests to `method` `path` (a regex on the path after
        /api/v10) with `status`: a 429 with retry_after, a 500..."""
        self._faults.append(Fault(method, path, status, body or {"message": "stand-in fault", "code": 0}, headers or {}, times))

    # -- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        # A burst opens up to a hundred connections at once (aiohttp's pool): with the default accept
        # queue (128) the kernel drops SYNs past it, and each dropped one stalls its request a full
        # second before the retry (TcpExtListenOverflows), which Discord's servers never do.
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=LISTEN_BACKLOG)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def rest_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.uploads.get(request.match_info["id"])
        if data is None:
            return web.Response(status=404)
        self.downloads.append(request.match_info["id"])
        return web.Response(body=data, content_type="application/octet-stream")

    # -- REST ---------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        payload, files = None, {}
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.filename:
                    files[part.filename] = bytes(await part.read(decode=False))
        elif request.can_read_body:
            raw = await request.read()
            payload = json.loads(raw) if raw else None
        record = Recorded(request.method, path, dict(request.query), payload, files, asyncio.get_running_loop().time())
        self.requests.append(record)
        async with self._new_request:
            self._new_request.notify_all()
        for fault in self._faults:
            if fault.times and fault.method == record.method and re.fullmatch(fault.path, path):
                fault.times -= 1
                return _json(fault.body, status=fault.status, headers=fault.headers)
        refusals = self._refusals(record)
        if refusals:
            self.refused.append((record, refusals))
            return _json(limits.error_body(refusals), status=400)
        return self._answer(record)

    def _refusals(self, r: Recorded) -> list[limits.Refusal]:
        """What Discord would refuse in this request (tests/discord_limits.py)."""
        m, p = r.method, r.path
        if m == "PUT" and p.startswith(f"/applications/{APP_ID}/") and p.endswith("/commands"):
            return limits.commands_problems(r.json or [])
        if m == "POST" and p.startswith("/interactions/") and p.endswith("/callback"):
            return limits.callback_problems(r.json, r.files, upload_limit=self.upload_limit)
        if m in ("POST", "PATCH") and p.startswith(f"/webhooks/{APP_ID}/"):
            return limits.message_problems(r.json, r.files, upload_limit=self.upload_limit)
        return []

    def _answer(self, r: Recorded) -> web.Response:
        m, p = r.method, r.path
        if (m, p) == ("GET", "/users/@me"):
            return _json(_user(BOT_ID, "Bombardier", bot=True))
        if (m, p) == ("GET", "/oauth2/applications/@me"):
            return _json({
                "id": str(APP_ID), "name": "Bombardier", "description": "", "icon": None, "bot_public": True,
                "bot_require_code_grant": False, "owner": _user(USER_ID, "owner"), "verify_key": "0" * 64,
                "flags": 0, "team": None,
            })
        if (m, p) == ("GET", "/gateway/bot"):
            return _json({"url": self.gateway_url.rstrip("/"), "shards": self.shard_count,
                          "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})
        if m == "PUT" and p == f"/applications/{APP_ID}/commands":
            self.global_commands = self._with_ids(r.json)
            return _json(self.global_commands)
        if m == "PUT" and p.startswith(f"/applications/{APP_ID}/guilds/") and p.endswith("/commands"):
            guild = int(p.split("/")[4])
            self.guild_commands[guild] = self._with_ids(r.json)
            return _json(self.guild_commands[guild])
        if m == "POST" and p.startswith("/interactions/") and p.endswith("/callback"):
            interaction_id = p.split("/")[2]
            kind = (r.json or {}).get("type")
            answer = {"interaction": {"id": interaction_id, "type": 2,
                                      "response_message_loading": kind == 5,
                                      "response_message_ephemeral": bool(((r.json or {}).get("data") or {}).get("flags", 0) & 64)}}
            return _json(answer)
        if p.startswith(f"/webhooks/{APP_ID}/"):
            return _json(self._message(r.json or {}))
        return _json({"message": f"the stand-in has no route {m} {p}", "code": 0}, status=404)

    def _with_ids(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**c, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1"} for c in commands]

    def _message(self, payload: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(next(self._ids)), "channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID),
            "author": _user(BOT_ID, "Bombardier", bot=True), "content": payload.get("content") or "",
            "timestamp": "2026-11-21T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": payload.get("embeds") or [], "pinned": False, "type": 0, "flags": payload.get("flags", 0),
        }

    async def wait_for(self, predicate, timeout: float = 10.0) -> Recorded:
        """The first recorded request (past or future) for which `predicate` is true."""
        async def find() -> Recorded:
            seen = 0  # each request is looked at once: a burst's many waiters stay cheap
            async with self._new_request:
                while True:
                    for r in self.requests[seen:]:
                        if predicate(r):
                            return r
                    seen = len(self.requests)
                    await self._new_request.wait()
        return await asyncio.wait_for(find(), timeout)

    # -- gateway ------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2 and self.close_identify_with is not None:
                    await ws.close(code=self.close_identify_with, message=b"Authentication failed.")
                elif op == 2:
                    shard = tuple((frame.get("d") or {}).get("shard") or (0, 1))
                    mine = [g for g in self.guilds if self.shard_of(g, shard[1]) == shard[0]]
                    await self._send(ws, "READY", {
                        "v": 10, "user": _user(BOT_ID, "Bombardier", bot=True),
                        "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                        "session_id": SESSION, "resume_gateway_url": self.gateway_url, "shard": list(shard),
                        "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [], "relationships": [],
                    })
                    for g in mine:
                        await self._send(ws, "GUILD_CREATE", self._guild(g))
                    async with self.shard_identified:
                        self.shards[ws] = shard
                        self.shard_identified.notify_all()
                    self.identified.set()
                elif op == 6:
                    await self._send(ws, "RESUMED", {})
                    self.resumed.set()
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            async with self.shard_identified:
                self.shards.pop(ws, None)
                self.shard_identified.notify_all()
        return ws

    @staticmethod
    def shard_of(guild_id: int | None, count: int) -> int:
        """The shard Discord sends a guild's events to (a DM's go to shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % count

    def channel_of(self, guild_id: int) -> int:
        return CHANNEL_ID if guild_id == GUILD_ID else guild_id + 1

    async def wait_for_shards(self, shards: set[int], timeout: float = 60.0, *, exactly: bool = False) -> None:
        """Until a connection has identified as each of `shards` (and is still open); with
        `exactly`, until no other shard's connection is open either (one whose process died)."""
        def done() -> bool:
            live = {s[0] for s in self.shards.values()}
            return live == shards if exactly else shards <= live

        async def ready() -> None:
            async with self.shard_identified:
                await self.shard_identified.wait_for(done)
        await asyncio.wait_for(ready(), timeout)

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        await ws.send_str(json.dumps({"op": 0, "s": next(self._seq), "t": event, "d": data}))

    def _guild(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        channel = self.channel_of(guild_id)
        return {
            "id": str(guild_id), "name": "The Table" if guild_id == GUILD_ID else f"Table {guild_id}",
            "unavailable": False, "owner_id": str(USER_ID),
            "member_count": 2, "large": False, "joined_at": "2026-11-21T00:00:00+00:00", "features": [],
            "roles": [{"id": str(guild_id), "name": "@everyone", "permissions": "104324673", "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [{"id": str(channel), "type": 0, "name": "war-room", "position": 0,
                          "permission_overwrites": [], "guild_id": str(guild_id)}],
            "members": [], "emojis": [], "stickers": [], "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "afk_timeout": 300, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "premium_tier": 0, "system_channel_flags": 0,
            "nsfw_level": 0, "preferred_locale": "en-US",
        }

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the connection of the shard its guild belongs to (to every
        connection that has not said its shard: a client of one shard)."""
        if event == "INTERACTION_CREATE":
            self.dispatched_at[data["id"]] = asyncio.get_running_loop().time()
        guild = int(data["guild_id"]) if data.get("guild_id") else None
        for ws in list(self._sockets):
            shard = self.shards.get(ws)
            if shard is None or shard[0] == self.shard_of(guild, shard[1]):
                await self._send(ws, event, data)

    async def drop_connection(self) -> None:
        """Close every gateway socket as Discord does when it wants a reconnect."""
        for ws in list(self._sockets):
            await ws.close(code=4000)

    # -- what the bot answered -----------------------------------------------------------------
    def responses(self, payload: dict[str, Any]) -> list[Recorded]:
        """Every request the bot made for the interaction `payload`: its callbacks, follow-ups and
        edits or deletions of its messages, in the order received."""
        callback = f"/interactions/{payload['id']}/{payload['token']}/callback"
        hook = f"/webhooks/{APP_ID}/{payload['token']}"
        return [r for r in self.requests if r.path == callback or r.path == hook or r.path.startswith(hook + "/")]

    async def answered(self, payload: dict[str, Any], timeout: float = 10.0) -> tuple[Recorded, Recorded]:
        """The interaction's first response (its callback: the answer, or a defer) and its answer
        (the callback itself, or after a defer the follow-up or edit that carries it)."""
        callback = f"/interactions/{payload['id']}/{payload['token']}/callback"
        hook = f"/webhooks/{APP_ID}/{payload['token']}"

        def answer(r: Recorded) -> bool:
            if r.path != callback and not r.path.startswith(hook):
                return False
            mine = self.responses(payload)
            if r not in mine or r.method == "DELETE":
                return False
            if r is mine[0]:
                return (r.json or {}).get("type") != 5
            return bool(r.json) and (r.json.get("content") or r.json.get("embeds")) is not None
        final = await self.wait_for(answer, timeout)
        return self.responses(payload)[0], final

    async def answer_as_callback(self, payload: dict[str, Any], timeout: float = 30.0) -> Recorded:
        """The interaction's answer as its callback would carry it (``{"type": 4, "data": ...}``): the
        callback itself, or, when the command deferred first (/log export, /battle end), its follow-up
        with the flags Discord would show it with."""
        first, final = await self.answered(payload, timeout)
        if final is first:
            return first
        data = dict(final.json)
        if self.shown_privately(payload, final):
            data["flags"] = data.get("flags", 0) | 64
        else:
            data["flags"] = data.get("flags", 0) & ~64
        return Recorded(final.method, final.path, final.query, {"type": 4, "data": data}, final.files, final.at)

    def shown_privately(self, payload: dict[str, Any], r: Recorded) -> bool:
        """Whether Discord would show the message `r` made for `payload` only to its user: a
        callback by its own flags; the first follow-up after a defer (or an edit of the deferred
        message) as the defer was, unless the deferred message was deleted first; any later
        follow-up by its own flags."""
        mine = self.responses(payload)
        first = mine[0]
        if r is first:
            return bool(((first.json or {}).get("data") or {}).get("flags", 0) & 64)
        deferred = (first.json or {}).get("type") == 5
        defer_private = bool(((first.json or {}).get("data") or {}).get("flags", 0) & 64)
        before = mine[1 : mine.index(r)]
        original_gone = any(x.method == "DELETE" and x.path.endswith("/messages/@original") for x in before)
        consumed = any(x.method == "POST" for x in before)
        if r.method == "PATCH" or (deferred and not original_gone and not consumed):
            return defer_private
        return bool((r.json or {}).get("flags", 0) & 64)

    # -- interactions -------------------------------------------------------------------------
    def autocomplete(self, command: str, focused: str, **options: Any) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for typing in option `focused` of ``/group sub``."""
        payload = self.slash(command, **options)
        payload["type"] = 4
        inner = payload["data"]["options"]
        while inner and inner[0]["type"] in (1, 2):
            inner = inner[0]["options"]
        for o in inner:
            if o["name"] == focused:
                o["focused"] = True
        return payload

    def slash(self, command: str, *, as_user: int = USER_ID, permissions: str = PLAYER_PERMISSIONS,
              guild_id: int = GUILD_ID, **options: Any) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for ``/group sub name:value ...`` from the stored commands,
        typed by the member `as_user` (with `permissions`). An attachment option's value is
        ``(filename, bytes)``: the file is uploaded as Discord does (served at its url, described in
        the payload's ``resolved.attachments``)."""
        words = command.lstrip("/").split()
        top = next(c for c in self.global_commands if c["name"] == words[0])
        resolved: dict[str, Any] = {}
        opts = []
        for k, v in options.items():
            kind = _option_type(top, words[1:], k)
            if kind == 11:  # ATTACHMENT
                filename, data = v
                attachment_id = str(next(self._ids))
                self.uploads[attachment_id] = data
                url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
                resolved.setdefault("attachments", {})[attachment_id] = {
                    "id": attachment_id, "filename": filename, "size": len(data), "url": url, "proxy_url": url,
                    "content_type": "application/octet-stream"}
                v = attachment_id
            opts.append({"name": k, "type": kind, "value": v})
        for sub in reversed(words[1:]):
            opts = [{"name": sub, "type": 1, "options": opts}]
        data = {"id": top["id"], "name": top["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return self._interaction(2, data, user_id=as_user, permissions=permissions, guild_id=guild_id)

    def press(self, custom_id: str, message: dict[str, Any], *, user_id: int = USER_ID,
              permissions: str = PLAYER_PERMISSIONS) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for pressing the button `custom_id` on `message` (as
        :meth:`message_with` rebuilds it from what the bot sent)."""
        payload = self._interaction(3, {"custom_id": custom_id, "component_type": 2}, user_id=user_id, permissions=permissions)
        payload["message"] = message
        return payload

    def submit(self, custom_id: str, values: dict[str, str], *, user_id: int = USER_ID) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for submitting the modal `custom_id` with text `values`
        (by each text input's custom id)."""
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        return self._interaction(5, {"custom_id": custom_id, "components": rows}, user_id=user_id)

    def message_with(self, r: Recorded) -> dict[str, Any]:
        """The message a callback or followup created, as Discord would send it back in a button
        press: its components included."""
        data = (r.json or {}).get("data", r.json) or {}
        message = self._message(data)
        message["components"] = data.get("components") or []
        return message

    async def details(self, r: Recorded, *, user_id: int = USER_ID) -> dict[str, Any]:
        """Press "Details" on the message `r` created, as `user_id`, and return the embed answered
        privately to them (the full breakdown behind the glance)."""
        data = (r.json or {}).get("data", r.json) or {}
        custom_id = next(b["custom_id"] for row in data.get("components") or [] for b in row["components"]
                         if b.get("label") == "Details")
        payload = self.press(custom_id, self.message_with(r), user_id=user_id)
        await self.dispatch("INTERACTION_CREATE", payload)
        call = await self.wait_for(lambda q: q.method == "POST" and q.path == f"/interactions/{payload['id']}/{payload['token']}/callback")
        assert call.json["data"]["flags"] & 64, "Details are answered privately"
        (embed,) = call.json["data"]["embeds"]
        return embed

    def _interaction(self, kind: int, data: dict[str, Any], *, user_id: int = USER_ID,
                     permissions: str = PLAYER_PERMISSIONS, guild_id: int = GUILD_ID) -> dict[str, Any]:
        interaction_id = next(self._ids)
        channel = self.channel_of(guild_id)
        return {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind, "token": f"token-{interaction_id}",
            "version": 1, "guild_id": str(guild_id), "channel_id": str(channel),
            "channel": {"id": str(channel), "type": 0, "guild_id": str(guild_id), "name": "war-room"},
            "member": {"user": _user(user_id, f"player-{user_id}"), "roles": [], "joined_at": "2026-11-21T00:00:00+00:00",
                       "deaf": False, "mute": False, "permissions": permissions, "flags": 0},
            "data": data,
            "locale": "en-GB", "guild_locale": "en-GB", "app_permissions": "104324673", "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)}, "context": 0,
            "attachment_size_limit": self.upload_limit,
        }


def _option_type(top: dict[str, Any], path: list[str], name: str) -> int:
    options = top.get("options", [])
    for word in path:
        options = next(o for o in options if o["name"] == word).get("options", [])
    return next(o for o in options if o["name"] == name)["type"]


def point_discord_py_at(standin: DiscordStandIn) -> None:
    """Aim the real client at the stand-in: the REST base and the default gateway."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = standin.rest_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(standin.gateway_url)


async def start_client(bot: Any, token: str = "standin-token", timeout: float = 15) -> asyncio.Task:
    """Log the real client in, connect it in the background and wait until READY; returns the
    connection task (await it after ``bot.close()``). login() comes first, because on Python 3.12+
    ``wait_for`` awaits ``wait_until_ready()`` at once, before a ``start()`` task has run at all."""
    bot._connection.guild_ready_timeout = 0  # READY without waiting 2 s for guilds to stream in
    await bot.login(token)
    runner = asyncio.create_task(bot.connect())
    try:
        await asyncio.wait_for(bot.wait_until_ready(), timeout)
    except BaseException:
        runner.cancel()
        raise
    return runner
