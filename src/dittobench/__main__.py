from dittobench.cli.app import main

main()
