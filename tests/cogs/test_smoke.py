from tests.cogs.conftest import members


async def test_start_posts_lobby(fake):
    ana, bo, cy = members(fake)
    reply = await ana.slash("start")
    print(reply.text)
    print(fake.last_public().content, fake.last_public().buttons().keys())
    r = await bo.click(fake.table_message(), "Join")
    print(fake.last_public().content)
    r = await ana.click(fake.table_message(), "Add computer")
    print(fake.last_public().content)
    r = await bo.click(fake.table_message(), "Start")
    print(r.text, fake.last_public().content, fake.last_public().buttons().keys(), fake.last_public().alt_texts)
    r = await ana.click(fake.table_message(), "My hand")
    print(r.text, r.last.alt_texts, r.last.ephemeral, r.last.custom_ids())
