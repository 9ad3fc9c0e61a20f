"""The one module of Discord's limits (tests/discord_limits.py): each limit refuses one past it and
accepts one at it, with Discord's field path and error shape."""

from __future__ import annotations

from tests import discord_limits as limits


def paths(refusals):
    return [r.path for r in refusals]


def test_a_message_at_every_limit_is_accepted():
    embed = {"title": "t" * 256, "description": "d" * 2000, "fields": [{"name": "n" * 10, "value": "v" * 1024}] * 3,
             "footer": {"text": "f" * 100}, "author": {"name": "a" * 256}}
    assert limits.embed_size(embed) == 256 + 2000 + 3 * 1034 + 100 + 256 <= 6000
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "c" * 100, "label": "l" * 80}] * 5}] * 5
    assert limits.message_problems({"content": "x" * 2000, "embeds": [embed], "components": rows},
                                   {f"{i}.png": b"0" * 10 for i in range(10)}) == []


def test_each_message_limit_refuses_one_past_it_naming_the_field():
    over = limits.message_problems({"content": "x" * 2001, "embeds": [{"title": "t" * 257, "description": "d" * 4097}]})
    assert paths(over) == [("content",), ("embeds", 0, "title"), ("embeds", 0, "description")]
    fields = [{"name": "n", "value": "v"}] * 26
    assert ("embeds", 0, "fields") in paths(limits.message_problems({"embeds": [{"fields": fields}]}))
    one = limits.message_problems({"embeds": [{"fields": [{"name": "n" * 257, "value": "v" * 1025}, {"name": "", "value": "v"}]}]})
    assert paths(one) == [("embeds", 0, "fields", 0, "name"), ("embeds", 0, "fields", 0, "value"), ("embeds", 0, "fields", 1, "name")]
    assert paths(limits.message_problems({"embeds": [{"footer": {"text": "f" * 2049}, "author": {"name": "a" * 257}}]})) == [
        ("embeds", 0, "footer", "text"), ("embeds", 0, "author", "name")]
    assert paths(limits.message_problems({"embeds": [{}] * 11})) == [("embeds",)]


def test_embeds_together_past_6000_are_refused_though_each_fits():
    two = [{"description": "d" * 3000}, {"description": "d" * 3001}]
    (r,) = limits.message_problems({"embeds": two})
    assert r.path == ("embeds",) and r.code == "MAX_EMBED_SIZE_EXCEEDED"


def test_attachments_components_and_upload_size():
    files = {f"{i}.png": b"0" for i in range(11)}
    assert paths(limits.message_problems({}, files)) == [("attachments",)]
    assert paths(limits.message_problems({}, {"big.bin": b"0" * 101}, upload_limit=100)) == [("files",)]
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "c" * 101, "label": "l" * 81}] * 6}] * 6
    got = paths(limits.message_problems({"components": rows}))
    assert ("components",) in got and ("components", 0, "components") in got
    assert ("components", 0, "components", 0, "custom_id") in got and ("components", 0, "components", 0, "label") in got
    select = {"type": 3, "custom_id": "s", "options": [{"label": "o", "value": "o"}] * 26}
    got = paths(limits.message_problems({"components": [{"type": 1, "components": [select]}]}))
    assert got == [("components", 0, "components", 0, "options")]


def test_autocomplete_and_modals():
    ok = [{"name": "n" * 100, "value": "v" * 100}] * 25
    assert limits.callback_problems({"type": 8, "data": {"choices": ok}}) == []
    bad = [{"name": "n" * 101, "value": "v" * 101}] * 26
    got = paths(limits.callback_problems({"type": 8, "data": {"choices": bad}}))
    assert ("data", "choices") in got and ("data", "choices", 0, "name") in got and ("data", "choices", 0, "value") in got
    row = {"type": 1, "components": [{"type": 4, "custom_id": "x", "label": "Toughness", "style": 1, "max_length": 2}]}
    assert limits.callback_problems({"type": 9, "data": {"title": "t" * 45, "custom_id": "m", "components": [row] * 5}}) == []
    long_label = {"type": 1, "components": [{"type": 4, "custom_id": "x", "label": "l" * 46, "style": 1}]}
    got = paths(limits.callback_problems({"type": 9, "data": {"title": "t" * 46, "custom_id": "m", "components": [long_label] * 6}}))
    assert ("data", "title") in got and ("data", "components") in got
    assert ("data", "components", 0, "components", 0, "label") in got


def test_command_size_counts_names_descriptions_and_choices_of_the_whole_tree():
    command = {"name": "fire", "description": "Fire it", "options": [
        {"type": 1, "name": "cannon", "description": "Boom", "options": [
            {"type": 3, "name": "facing", "description": "Side", "choices": [{"name": "front", "value": "front"}]}]}]}
    assert limits.command_size(command) == 4 + 7 + 6 + 4 + 6 + 4 + 5 + 5
    assert limits.command_problems(command) == []


def test_command_schemas_past_discords_limits_are_refused():
    option = {"type": 4, "name": "Bad Name", "description": "", "choices": [{"name": "c", "value": 1}] * 26}
    got = paths(limits.command_problems({"name": "x", "description": "d" * 101, "options": [option] * 26}))
    assert ("description",) in got and ("options",) in got
    assert ("options", 0, "name") in got and ("options", 0, "description") in got and ("options", 0, "choices") in got
    order = [{"type": 4, "name": "a", "description": "a"}, {"type": 4, "name": "b", "description": "b", "required": True}]
    assert paths(limits.command_problems({"name": "x", "description": "d", "options": order})) == [("options",)]
    huge = {"name": "x", "description": "d", "options": [{"type": 3, "name": f"o{i}", "description": "d" * 100} for i in range(25)]
            + []}
    huge["options"][0]["choices"] = [{"name": "n" * 100, "value": "v" * 100}] * 25
    (too_big,) = limits.command_problems(huge)
    assert too_big.path == () and too_big.code == "APPLICATION_COMMAND_TOO_LARGE"


def test_the_error_body_is_discords_shape():
    body = limits.error_body(limits.message_problems({"embeds": [{"title": "t" * 300}]}, path=("data",)))
    assert body["code"] == 50035 and body["message"] == "Invalid Form Body"
    (error,) = body["errors"]["data"]["embeds"]["0"]["title"]["_errors"]
    assert error["code"] == "BASE_TYPE_MAX_LENGTH"
