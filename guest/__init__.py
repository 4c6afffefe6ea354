"""rs-learn guest: the memory engine compiled into the WebAssembly component.

Standard library only. ``guest/app.py`` is the only module that imports the
generated ``wit_world`` bindings; every other module receives a :class:`Host`.
"""
