from __future__ import annotations

from bench.reliability.run import main

raise SystemExit(main())
