// Every Mantine style, in the `mantine` cascade layer; loaded with each page other than the landing page.
import '@mantine/core/styles.layer.css';
