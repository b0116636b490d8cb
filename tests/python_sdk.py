"""The official Python SDK (`mcp` on PyPI) as the client of both example servers.

- `examples/notes` over stdio: lists its three tools with their hints, adds, lists and deletes
  a note, and gets a failed result (not a protocol error) for a bad argument; and in read-only
  mode (`--read-only`) lists `list_notes` alone and refuses `add_note` as an unknown tool.
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
                check(names == ["list_notes", "add_note", "delete_note"], f"tools: {names}")
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
    await notes_read_only(sys.argv[1])
    await conformance(sys.argv[2])


if __name__ == "__main__":
    asyncio.run(main())
