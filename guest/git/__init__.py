"""Git-native memory: the text projection and the three-way merge of a committed store."""
