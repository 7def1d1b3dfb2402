<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop/chat.py" line="62"/>
        <source>New conversation</source>
        <translation>Nouvelle conversation</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="76"/>
        <source>Ask about your books…  (Ctrl+L)</source>
        <translation>Pose une question sur tes livres…  (Ctrl+L)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="78"/>
        <source>Ask</source>
        <translation>Demander</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop</source>
        <translation>Arrêter</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="81"/>
        <source>Stop the answer (Esc)</source>
        <translation>Arrêter la réponse (Esc)</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="83"/>
        <source>Copy answer</source>
        <translation>Copier la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/chat.py" line="221"/>
        <source>Delete conversation</source>
        <translation>Supprimer la conversation</translation>
    </message>
</context>
<context>
    <name>LibraryModel</name>
    <message>
        <location filename="../../desktop/library_view.py" line="51"/>
        <source>Book / chapter / section</source>
        <translation>Livre / chapitre / section</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="51"/>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
</context>
<context>
    <name>LibrarySidebar</name>
    <message>
        <location filename="../../desktop/library_view.py" line="131"/>
        <source>Your library is empty</source>
        <translation>Ta bibliothèque est vide</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="133"/>
        <source>Drop a textbook here (PDF, EPUB, Markdown, text or HTML), or import one. Everything stays on this computer.</source>
        <translation>Dépose un manuel ici (PDF, EPUB, Markdown, texte ou HTML), ou importes-en un. Tout reste sur cet ordinateur.</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="136"/>
        <source>Try the sample book</source>
        <translation>Essayer le livre d&apos;exemple</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="139"/>
        <source>Import a book…</source>
        <translation>Importer un livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="192"/>
        <source>Open in reader</source>
        <translation>Ouvrir dans le lecteur</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="193"/>
        <source>Ask about this book</source>
        <translation>Poser une question sur ce livre</translation>
    </message>
    <message>
        <location filename="../../desktop/library_view.py" line="196"/>
        <source>Remove from library…</source>
        <translation>Retirer de la bibliothèque…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="104"/>
        <source>Chat</source>
        <translation>Discussion</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="105"/>
        <source>Study</source>
        <translation>Étude</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="120"/>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="121"/>
        <source>&amp;Import books…</source>
        <translation>&amp;Importer des livres…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="123"/>
        <source>&amp;Open course pack…</source>
        <translation>&amp;Ouvrir un pack de cours…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="124"/>
        <source>&amp;Export course pack…</source>
        <translation>&amp;Exporter un pack de cours…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="125"/>
        <source>Try the &amp;sample book</source>
        <translation>Essayer le &amp;livre d&apos;exemple</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="127"/>
        <source>&amp;Settings…</source>
        <translation>&amp;Paramètres…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="129"/>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="130"/>
        <source>&amp;Ask</source>
        <translation>&amp;Demander</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="131"/>
        <source>&amp;Question box</source>
        <translation>Zone de &amp;question</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="132"/>
        <source>&amp;Stop answer</source>
        <translation>&amp;Arrêter la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="135"/>
        <source>&amp;Copy answer</source>
        <translation>&amp;Copier la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="136"/>
        <source>&amp;New conversation</source>
        <translation>&amp;Nouvelle conversation</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="138"/>
        <source>&amp;Reader</source>
        <translation>&amp;Lecteur</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="139"/>
        <source>&amp;Find in book…</source>
        <translation>&amp;Rechercher dans le livre…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="140"/>
        <source>&amp;Help</source>
        <translation>&amp;Aide</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="141"/>
        <source>Check &amp;library…</source>
        <translation>&amp;Vérifier la bibliothèque…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="142"/>
        <source>&amp;About Lantern</source>
        <translation>À &amp;propos de Lantern</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="156"/>
        <source>Offline ✓</source>
        <translation>Hors ligne ✓</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="164"/>
        <source>Lantern never uses the network: your books and questions stay here.</source>
        <translation>Lantern n&apos;utilise jamais le réseau : tes livres et tes questions restent ici.</translation>
    </message>
</context>
<context>
    <name>ReaderWidget</name>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit</source>
        <translation>Ajuster</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="222"/>
        <source>Fit page width</source>
        <translation>Ajuster à la largeur de la page</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find</source>
        <translation>Chercher</translation>
    </message>
    <message>
        <location filename="../../desktop/reader.py" line="227"/>
        <source>Find in this book (Ctrl+F)</source>
        <translation>Chercher dans ce livre (Ctrl+F)</translation>
    </message>
</context>
<context>
    <name>Scope</name>
    <message>
        <location filename="../../desktop/protocols.py" line="44"/>
        <source>All books</source>
        <translation>Tous les livres</translation>
    </message>
    <message>
        <location filename="../../desktop/protocols.py" line="45"/>
        <source>One book</source>
        <translation>Un livre</translation>
    </message>
</context>
<context>
    <name>ScopeBar</name>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <location filename="../../desktop/scope_bar.py" line="141"/>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>All chapters</source>
        <translation>Tous les chapitres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="58"/>
        <source>Only these chapters</source>
        <translation>Seulement ces chapitres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="63"/>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="71"/>
        <source>Ask in:</source>
        <translation>Interroger :</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="85"/>
        <source>All books</source>
        <translation>Tous les livres</translation>
    </message>
    <message>
        <location filename="../../desktop/scope_bar.py" line="162"/>
        <source>Ch. </source>
        <translation>Chap. </translation>
    </message>
</context>
<context>
    <name>SourceCards</name>
    <message>
        <location filename="../../desktop/transcript.py" line="224"/>
        <location filename="../../desktop/transcript.py" line="236"/>
        <source>Sources</source>
        <translation>Sources</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="236"/>
        <source>Sources — none yet</source>
        <translation>Sources — aucune pour l’instant</translation>
    </message>
</context>
<context>
    <name>Study</name>
    <message>
        <location filename="../../desktop/study_tabs.py" line="36"/>
        <source>Your answer</source>
        <translation>Ta réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="38"/>
        <source>Check my answer</source>
        <translation>Vérifier ma réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="39"/>
        <source>More like this</source>
        <translation>Exercices similaires</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="40"/>
        <source>Go to the next chapter</source>
        <translation>Passer au chapitre suivant</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="71"/>
        <source>Show answer</source>
        <translation>Afficher la réponse</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="72"/>
        <source>Open its page</source>
        <translation>Ouvrir sa page</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="74"/>
        <source>Review all of this chapter&apos;s cards</source>
        <translation>Réviser toutes les cartes de ce chapitre</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="77"/>
        <source>Export to Anki…</source>
        <translation>Exporter vers Anki…</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="107"/>
        <source>Make a quiz</source>
        <translation>Créer un quiz</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="108"/>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="110"/>
        <source>Take the saved quiz</source>
        <translation>Faire le quiz enregistré</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="112"/>
        <source>The quiz last made for this chapter, here or by a teacher (a course pack)</source>
        <translation>Le dernier quiz créé pour ce chapitre, ici ou par un enseignant (un pack de cours)</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="118"/>
        <source>Make a quiz on this chapter: every answer is checked against the book.</source>
        <translation>Crée un quiz sur ce chapitre : chaque réponse est vérifiée dans le livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="123"/>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="124"/>
        <source>Next question</source>
        <translation>Question suivante</translation>
    </message>
    <message>
        <location filename="../../desktop/study_tabs.py" line="130"/>
        <source>Questions</source>
        <translation>Questions</translation>
    </message>
</context>
<context>
    <name>StudyPanel</name>
    <message>
        <location filename="../../desktop/study.py" line="69"/>
        <source>Book</source>
        <translation>Livre</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="71"/>
        <source>Chapter</source>
        <translation>Chapitre</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="74"/>
        <source>Practice</source>
        <translation>Exercices</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="75"/>
        <source>Cards</source>
        <translation>Cartes</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="76"/>
        <source>Quiz</source>
        <translation>Quiz</translation>
    </message>
    <message>
        <location filename="../../desktop/study.py" line="77"/>
        <source>Guide</source>
        <translation>Guide</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../desktop/transcript.py" line="70"/>
        <source>English</source>
        <translation>anglais</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>Spanish</source>
        <translation>espagnol</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="71"/>
        <source>French</source>
        <translation>français</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>German</source>
        <translation>allemand</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="72"/>
        <source>Portuguese</source>
        <translation>portugais</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="73"/>
        <source>Chinese</source>
        <translation>chinois</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="92"/>
        <source>Your book cannot say what your own program does</source>
        <translation>Ton livre ne peut pas dire ce que fait ton propre programme</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="94"/>
        <source>No source supports this sentence</source>
        <translation>Aucune source n&apos;appuie cette phrase</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="111"/>
        <source>Translating the quotes…</source>
        <translation>Traduction des citations…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="114"/>
        <source>Show the quotes in {language}</source>
        <translation>Afficher les citations en {language}</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="116"/>
        <source>The quotes in {language} (translated; the book&apos;s own words are on the chips):</source>
        <translation>Les citations en {language} (traduites ; les mots du livre sont sur les pastilles) :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="127"/>
        <source>You:</source>
        <translation>Toi :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="127"/>
        <source>From the book:</source>
        <translation>D&apos;après le livre :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="128"/>
        <source>Searching your books…</source>
        <translation>Recherche dans tes livres…</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="137"/>
        <source>Lantern:</source>
        <translation>Lantern :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="142"/>
        <source>Nearest sections:</source>
        <translation>Sections les plus proches :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="146"/>
        <source>Stopped.</source>
        <translation>Arrêté.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="148"/>
        <source>The answer failed.</source>
        <translation>La réponse a échoué.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="153"/>
        <source>Quoted from your book (no chat model is loaded).</source>
        <translation>Cité de ton livre (aucun modèle de discussion n&apos;est chargé).</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="155"/>
        <source>Includes explanation beyond the book.</source>
        <translation>Contient des explications qui vont au-delà du livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="157"/>
        <source>Translated into {language} from the {source} answer checked against your book.</source>
        <translation>Traduit en {language} à partir de la réponse en {source} vérifiée dans ton livre.</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="160"/>
        <source>In {language}:</source>
        <translation>En {language} :</translation>
    </message>
    <message>
        <location filename="../../desktop/transcript.py" line="175"/>
        <source>Ask a question about your books. Answers cite the chapter, section and page; click a citation to open the page.</source>
        <translation>Pose une question sur tes livres. Les réponses citent le chapitre, la section et la page ; clique sur une citation pour ouvrir la page.</translation>
    </message>
</context>
</TS>
