"""The replay GIF keeps the images' colours (issue 27 §7): the input that showed it, a
result page whose green (+) and red (−) points came out grey-green in the GIF's own
64-colour palette."""

from __future__ import annotations

import io

from PIL import Image

from rendering import render_result
from rendering.compose import DANGER
from rendering.replay import render_replay_animation
from rendering.result import GREEN
from tools.samples import spring_result


def test_the_gif_keeps_the_green_and_red_of_the_points() -> None:
    page = render_result(spring_result())
    assert {GREEN, DANGER} <= {c for _, c in Image.open(io.BytesIO(page)).convert("RGB").getcolors(1 << 20)}
    gif = Image.open(io.BytesIO(render_replay_animation([page, page])))  # 640 px wide
    for frame in range(gif.n_frames):
        gif.seek(frame)
        colours = {c for _, c in gif.convert("RGB").getcolors(1 << 20)}
        assert GREEN in colours and DANGER in colours, frame
