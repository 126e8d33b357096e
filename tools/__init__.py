"""Developer tools beside the bot, not shipped with it: sample images (``tools.preview``),
the shared PNG palette chooser (``tools.palette``) and the sample inputs they share with the
tests and benchmarks (``tools.samples``)."""
