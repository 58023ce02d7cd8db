"""placeholder"""
ENTRIES = []
