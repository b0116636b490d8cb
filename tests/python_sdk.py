"""The official Python SDK (`mcp` on PyPI) as the client of both example servers.

- `examples/notes` over stdio: lists its four tools with their hints, adds, lists and deletes
  a note, and gets a failed result (not a protocol error) for a bad argument; and in read-only
  mode (`--read-only`) lists `list_notes` alone and refuses `add_note` as an unknown tool.
  Declaring the tool-resolution extension, it sends `tools/resolve` (the extension's custom
  request) and reads each action of `manage_note` resolved to its own hints.
- `examples/conformance.rs` over Streamable HTTP: lists its tools and reads an image, audio,
  an embedded resource and mixed content back as the SDK's own types.

Run by `tests/python_sdk.sh`, which installs the SDK into a virtual environment first.
Usage: python tests/python_sdk.py NOTES_BINARY CONFORMANCE_URL
"""

import asyncio
import base64
import os
import sys
import tempfile
from typing import Any, Literal

import pydantic

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


def field(value, snake, camel):
    """A field of an SDK type: 2.x spells them in snake case, 1.x as the wire does."""
    return getattr(value, snake) if hasattr(value, snake) else getattr(value, camel)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


async def notes(binary):
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, NOTES_FILE=os.path.join(home, "notes.json"))
        params = StdioServerParameters(command=binary, args=[], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                names = [tool.name for tool in listed.tools]
                check(names == ["list_notes", "add_note", "delete_note", "manage_note"], f"tools: {names}")
                hints = {tool.name: tool.annotations for tool in listed.tools}
                check(field(hints["list_notes"], "read_only_hint", "readOnlyHint") is True, "list_notes is read-only")
                check(field(hints["delete_note"], "destructive_hint", "destructiveHint") is True, "delete_note is destructive")
                check(field(hints["add_note"], "destructive_hint", "destructiveHint") is False, "add_note is not destructive")

                added = await session.call_tool("add_note", {"title": "Milk", "body": "2 litres"})
                check(not field(added, "is_error", "isError"), f"add_note failed: {added}")
                listing = await session.call_tool("list_notes", {})
                text = " ".join(block.text for block in listing.content if block.type == "text")
                check("Milk" in text, f"list_notes: {text!r}")
                bad = await session.call_tool("delete_note", {"note_id": "one"})
                check(field(bad, "is_error", "isError"), "a bad argument is a failed result")
                check("note_id" in bad.content[0].text, f"it names the argument: {bad.content}")
                deleted = await session.call_tool("delete_note", {"note_id": 1})
                check(not field(deleted, "is_error", "isError"), f"delete_note failed: {deleted}")
    print("python sdk: notes over stdio: ok")


RESOLUTION = "io.modelcontextprotocol/tool-resolution"


class ResolveToolRequest(types.Request[dict[str, Any], Literal["tools/resolve"]]):
    """The tool-resolution extension's request, which the SDK does not know by name."""

    method: Literal["tools/resolve"] = "tools/resolve"
    params: dict[str, Any]


async def notes_resolved(binary):
    """A client that declares the tool-resolution extension sees `manage_note` marked
    resolvable and each of its calls resolved to that action's hints, without the call made."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, NOTES_FILE=os.path.join(home, "notes.json"))
        params = StdioServerParameters(command=binary, args=[], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, extensions={RESOLUTION: {}}) as session:
                initialized = await session.initialize()
                extensions = field(initialized, "capabilities", "capabilities").extensions or {}
                check(RESOLUTION in extensions, f"the server declares the extension: {extensions}")
                listed = await session.list_tools()
                manage = next(tool for tool in listed.tools if tool.name == "manage_note")
                meta = field(manage, "meta", "_meta") or {}
                check(meta.get(RESOLUTION) == {"resolvable": True}, f"manage_note is marked: {meta}")
                added = await session.call_tool("add_note", {"title": "Milk", "body": "2 litres"})
                check(not field(added, "is_error", "isError"), f"add_note failed: {added}")
                answers = {}
                for action in ["read", "append", "delete"]:
                    request = ResolveToolRequest(
                        params={"name": "manage_note", "arguments": {"note_id": 1, "action": action}}
                    )
                    answers[action] = await session.send_request(request, pydantic.TypeAdapter(dict[str, Any]))
                for action, answer in answers.items():
                    check(answer.get("resultType") == "complete", f"{action}: {answer}")
                    check(answer.get("name") == "manage_note", f"{action}: {answer}")
                    check(set(answer["annotations"]) == {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}, answer)
                check(answers["read"]["annotations"]["readOnlyHint"] is True, f"a read is read-only: {answers}")
                check(answers["append"]["annotations"]["destructiveHint"] is False, f"an append destroys nothing: {answers}")
                check(answers["delete"]["annotations"]["destructiveHint"] is True, f"a delete is destructive: {answers}")
                listing = await session.call_tool("list_notes", {})
                text = " ".join(block.text for block in listing.content if block.type == "text")
                check("Milk" in text, f"resolving deleted nothing: {text!r}")
    print("python sdk: notes' per-call hints (tools/resolve) over stdio: ok")


async def notes_read_only(binary):
    """The notes server in read-only mode: only `list_notes` is listed, and a write tool's
    call is answered as a tool that does not exist."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, NOTES_FILE=os.path.join(home, "notes.json"))
        params = StdioServerParameters(command=binary, args=["--read-only"], env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                names = [tool.name for tool in listed.tools]
                check(names == ["list_notes"], f"read-only tools: {names}")
                listing = await session.call_tool("list_notes", {})
                check(not field(listing, "is_error", "isError"), f"list_notes failed: {listing}")
                try:
                    refused = await session.call_tool("add_note", {"title": "Milk", "body": "x"})
                except Exception as error:  # the SDK raises a protocol error as McpError
                    check("unknown tool: add_note" in str(error), f"refused as unknown: {error}")
                else:
                    raise AssertionError(f"add_note was called in read-only mode: {refused}")
    print("python sdk: notes in read-only mode over stdio: ok")


async def conformance(url):
    async with streamable_http_client(url) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            names = {tool.name for tool in listed.tools}
            check("test_image_content" in names, f"tools: {sorted(names)}")
            schema_tool = next(t for t in listed.tools if t.name == "json_schema_2020_12_tool")
            check("$defs" in field(schema_tool, "input_schema", "inputSchema"), "the input schema keeps $defs")

            image = await session.call_tool("test_image_content", {})
            block = image.content[0]
            check(isinstance(block, types.ImageContent), f"an image: {block}")
            check(field(block, "mime_type", "mimeType") == "image/png", block)
            check(base64.b64decode(block.data).startswith(b"\x89PNG"), "PNG bytes")

            audio = await session.call_tool("test_audio_content", {})
            check(isinstance(audio.content[0], types.AudioContent), f"audio: {audio.content}")
            check(base64.b64decode(audio.content[0].data)[:4] == b"RIFF", "WAV bytes")

            embedded = await session.call_tool("test_embedded_resource", {})
            resource = embedded.content[0]
            check(isinstance(resource, types.EmbeddedResource), f"a resource: {resource}")
            check(str(resource.resource.uri) == "test://embedded-resource", resource.resource.uri)

            mixed = await session.call_tool("test_multiple_content_types", {})
            kinds = [block.type for block in mixed.content]
            check(kinds == ["text", "image", "resource"], f"mixed: {kinds}")

            failed = await session.call_tool("test_error_handling", {})
            check(field(failed, "is_error", "isError"), "the error tool fails as a result")
    print("python sdk: conformance example over Streamable HTTP: ok")


async def main():
    await notes(sys.argv[1])
    await notes_resolved(sys.argv[1])
    await notes_read_only(sys.argv[1])
    await conformance(sys.argv[2])


if __name__ == "__main__":
    asyncio.run(main())
